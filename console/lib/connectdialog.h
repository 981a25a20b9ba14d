// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include "transport/target.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace pepsi::console {

// File → Connect…: a target to add, typed (a socket path or
// ssh://[USER@]HOST[:PORT][/SOCKET]) or picked from the recent ones
// (RecentTargets), which the line edit also completes. OK only for a target
// that parses; what is wrong with one is said under the line.
class ConnectDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    QLineEdit *edit() const { return m_edit; }
    QListWidget *recent() const { return m_recent; }
    // Valid once the dialog was accepted.
    const transport::Target &target() const { return m_target; }

private:
    void check();

    QLineEdit *m_edit;
    QListWidget *m_recent;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
    transport::Target m_target;
};

} // namespace pepsi::console
