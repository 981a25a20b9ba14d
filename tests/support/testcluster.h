// SPDX-License-Identifier: AGPL-3.0-or-later
#pragma once

#include <QString>

// The PostgreSQL server behind PEPSI_TEST_DATABASE, restarted by a test that
// needs an outage (`pg_ctl restart -m fast`). Only a server on this machine
// qualifies: its data directory comes from `SHOW data_directory`, and pg_ctl
// runs as the directory's owner (through `runuser` when we are root and it is
// not ours). Every connection to the server is dropped by a restart, the
// caller's own included: reopen them afterwards.
class TestCluster
{
public:
    // Looks the server up; false, with whyNot(), when it cannot be restarted
    // from here (remote, not our data directory and not root, no pg_ctl).
    bool probe();
    QString whyNot() const { return m_whyNot; }
    QString dataDirectory() const { return m_dataDirectory; }

    // Blocks until the server accepts connections again (pg_ctl -w), at most
    // timeoutMs; false with *error (pg_ctl's output) otherwise.
    bool restart(QString *error, int timeoutMs = 60000);

private:
    QString m_whyNot;
    QString m_dataDirectory;
    QString m_pgCtl;
    QString m_owner; // empty: run pg_ctl as ourselves
};
