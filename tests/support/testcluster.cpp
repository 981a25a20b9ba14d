// SPDX-License-Identifier: AGPL-3.0-or-later
#include "testcluster.h"

#include "db/database.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <linux/close_range.h>
#include <pwd.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

bool TestCluster::probe()
{
    const QString admin = qEnvironmentVariable("PEPSI_TEST_DATABASE");
    if (admin.isEmpty()) {
        m_whyNot = u"PEPSI_TEST_DATABASE is not set"_s;
        return false;
    }
    bool local = false;
    int major = 0;
    const QString name = u"pepsi-test-cluster-probe"_s;
    {
        const auto db = pepsi::openDatabase(name, admin, u"pepsi-test-cluster"_s);
        QSqlQuery q(db ? *db : QSqlDatabase());
        if (!db) {
            m_whyNot = db.error();
        } else if (q.exec(u"SELECT inet_server_addr() IS NULL, current_setting('data_directory'), "
                          "current_setting('server_version_num')::int / 10000"_s)
                   && q.next()) {
            local = q.value(0).toBool();
            m_dataDirectory = q.value(1).toString();
            major = q.value(2).toInt();
        } else {
            m_whyNot = u"SHOW data_directory needs a superuser connection in PEPSI_TEST_DATABASE"_s;
        }
    }
    QSqlDatabase::removeDatabase(name);
    if (m_dataDirectory.isEmpty())
        return false;
    if (!local) {
        m_whyNot = u"the server is reached over TCP; only a server on this machine can be restarted"_s;
        return false;
    }
    const QFileInfo data(m_dataDirectory);
    if (!data.exists()) {
        m_whyNot = u"the data directory %1 is not visible from here"_s.arg(m_dataDirectory);
        return false;
    }
    m_pgCtl = u"/usr/lib/postgresql/%1/bin/pg_ctl"_s.arg(major);
    if (!QFileInfo(m_pgCtl).isExecutable())
        m_pgCtl = QStandardPaths::findExecutable(u"pg_ctl"_s);
    if (m_pgCtl.isEmpty()) {
        m_whyNot = u"pg_ctl is neither in /usr/lib/postgresql/%1/bin nor on PATH"_s.arg(major);
        return false;
    }
    const uint owner = data.ownerId();
    if (owner != ::geteuid()) {
        if (::geteuid() != 0) {
            m_whyNot =
                u"the data directory %1 belongs to uid %2, and only root may act as its owner"_s.arg(m_dataDirectory)
                    .arg(owner);
            return false;
        }
        const passwd *account = ::getpwuid(owner);
        if (!account) {
            m_whyNot = u"the owner (uid %1) of %2 has no account name"_s.arg(owner).arg(m_dataDirectory);
            return false;
        }
        m_owner = QString::fromLocal8Bit(account->pw_name);
    }
    return true;
}

bool TestCluster::restart(QString *error, int timeoutMs)
{
    return pgCtl({u"-m"_s, u"fast"_s, u"restart"_s}, error, timeoutMs);
}

bool TestCluster::stop(QString *error, int timeoutMs)
{
    if (m_pgCtl.isEmpty() && !probe()) {
        *error = m_whyNot;
        return false;
    }
    QFile opts(m_dataDirectory + u"/postmaster.opts"_s);
    if (opts.open(QIODevice::ReadOnly)) {
        const QString line = QString::fromLocal8Bit(opts.readLine()).trimmed();
        const qsizetype space = line.indexOf(u' ');
        m_serverOptions = space < 0 ? QString() : line.mid(space + 1);
    }
    return pgCtl({u"-m"_s, u"fast"_s, u"stop"_s}, error, timeoutMs);
}

bool TestCluster::start(QString *error, int timeoutMs)
{
    QStringList arguments;
    if (!m_serverOptions.isEmpty())
        arguments << u"-o"_s << m_serverOptions;
    return pgCtl(arguments << u"start"_s, error, timeoutMs);
}

bool TestCluster::pgCtl(const QStringList &arguments, QString *error, int timeoutMs)
{
    if (m_pgCtl.isEmpty() && !probe()) {
        *error = m_whyNot;
        return false;
    }
    QStringList command{m_pgCtl, u"-D"_s, m_dataDirectory,
                        u"-w"_s, u"-t"_s, QString::number(std::max(1, timeoutMs / 1000))};
    // scripts/pg-sandbox keeps the server log next to the data directory.
    const QString log = QFileInfo(m_dataDirectory).absolutePath() + u"/log"_s;
    if (QFileInfo::exists(log) && !arguments.contains(u"stop"_s))
        command << u"-l"_s << log;
    command << arguments;
    if (!m_owner.isEmpty())
        command = QStringList{u"runuser"_s, u"-u"_s, m_owner, u"--"_s} + command;

    QProcess pgCtl;
    pgCtl.setProgram(command.takeFirst());
    pgCtl.setArguments(command);
    pgCtl.setWorkingDirectory(u"/"_s); // the owner may not be allowed into ours
    pgCtl.setStandardInputFile(QProcess::nullDevice());
    pgCtl.setProcessChannelMode(QProcess::MergedChannels);
    // Without -l the new postmaster would log into our pipe for ever.
    if (!command.contains(u"-l"_s))
        pgCtl.setStandardOutputFile(QProcess::nullDevice());
    // The new postmaster must not keep any descriptor of ours (a ctest pipe,
    // say) open for its whole life.
    pgCtl.setChildProcessModifier([] { ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC); });
    pgCtl.start();
    if (!pgCtl.waitForFinished(timeoutMs + 5000)) {
        *error = u"%1 did not finish: %2"_s.arg(pgCtl.program(), pgCtl.errorString());
        pgCtl.kill();
        return false;
    }
    if (pgCtl.exitStatus() != QProcess::NormalExit || pgCtl.exitCode() != 0) {
        *error = u"%1 %2 failed (exit %3): %4"_s.arg(pgCtl.program(), pgCtl.arguments().join(u' '))
                     .arg(pgCtl.exitCode())
                     .arg(QString::fromLocal8Bit(pgCtl.readAll()).trimmed());
        return false;
    }
    return true;
}
