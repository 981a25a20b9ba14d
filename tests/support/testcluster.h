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
    // The server down (`pg_ctl stop -m fast`) and up again (`pg_ctl start`
    // with the options it ran with, from postmaster.opts), for a test that
    // starts a daemon while there is no server at all.
    bool stop(QString *error, int timeoutMs = 60000);
    bool start(QString *error, int timeoutMs = 60000);

private:
    bool pgCtl(const QStringList &arguments, QString *error, int timeoutMs);

    QString m_whyNot;
    QString m_serverOptions; // postmaster.opts without the program, read by stop()
    QString m_dataDirectory;
    QString m_pgCtl;
    QString m_owner; // empty: run pg_ctl as ourselves
};
