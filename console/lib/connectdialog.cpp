// SPDX-License-Identifier: AGPL-3.0-or-later
#include "connectdialog.h"

#include "recenttargets.h"

#include <QCompleter>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace pepsi::console {

using namespace Qt::StringLiterals;

ConnectDialog::ConnectDialog(QWidget *parent)
    : QDialog(parent)
    , m_edit(new QLineEdit(this))
    , m_recent(new QListWidget(this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Connect to a dispatcher"));
    const QStringList recent = RecentTargets::load();
    m_edit->setObjectName(u"target"_s);
    m_edit->setPlaceholderText(tr("/run/pepsi/dispatch.sock or ssh://user@host"));
    m_edit->setCompleter(new QCompleter(recent, m_edit));
    m_edit->setMinimumWidth(420);
    m_recent->setObjectName(u"recentTargets"_s);
    m_recent->addItems(recent);
    m_problem->setObjectName(u"problem"_s);
    m_problem->setStyleSheet(u"QLabel { color: #b00020; }"_s);
    m_problem->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(tr("&Target (a control socket's path or ssh://[USER@]HOST[:PORT][/SOCKET]):"), this);
    label->setBuddy(m_edit);
    layout->addWidget(label);
    layout->addWidget(m_edit);
    layout->addWidget(m_problem);
    auto *recentLabel = new QLabel(tr("&Recent targets:"), this);
    recentLabel->setBuddy(m_recent);
    layout->addWidget(recentLabel);
    layout->addWidget(m_recent);
    layout->addWidget(m_buttons);

    connect(m_edit, &QLineEdit::textChanged, this, &ConnectDialog::check);
    connect(m_recent, &QListWidget::currentTextChanged, m_edit, &QLineEdit::setText);
    connect(m_recent, &QListWidget::itemActivated, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    check();
}

void ConnectDialog::check()
{
    const QString text = m_edit->text().trimmed();
    const auto parsed = transport::Target::parse(text);
    const bool ok = !text.isEmpty() && parsed;
    if (ok)
        m_target = *parsed;
    m_problem->setText(text.isEmpty() || ok ? QString() : parsed.error());
    m_problem->setVisible(!m_problem->text().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

} // namespace pepsi::console
