// SPDX-License-Identifier: AGPL-3.0-or-later
// The console's short names of its systems (doc/man/pepsi-console.rst,
// "Targets and several systems"): what each target is called, and how
// names that collide are told apart.
#include "systemnames.h"

#include <QTest>

using namespace pepsi::console;
using namespace Qt::StringLiterals;
using pepsi::transport::Target;

class TestSystemNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void uniqueNames_data();
    void uniqueNames();
};

namespace {

// "TARGET" or "TARGET=DATABASE" (the database its daemon reported).
SystemNames::System system(const QString &spec)
{
    const QString text = spec.section(u'=', 0, 0);
    const auto target = text.startsWith(u"ssh://"_s) ? Target::parse(text) : Target::localSocket(text);
    return {target ? *target : Target(), spec.section(u'=', 1)};
}

} // namespace

void TestSystemNames::uniqueNames_data()
{
    QTest::addColumn<QStringList>("systems");
    QTest::addColumn<QStringList>("names");

    QTest::newRow("ssh: the host") << QStringList{u"ssh://ops@db1.example.org:2222/run/pepsi/dispatch.sock"_s}
                                   << QStringList{u"db1.example.org"_s};
    QTest::newRow("socket before its daemon answered: the file")
        << QStringList{u"/run/pepsi/dispatch.sock"_s} << QStringList{u"dispatch.sock"_s};
    QTest::newRow("socket: the database")
        << QStringList{u"/run/pepsi/dispatch.sock=orders"_s} << QStringList{u"orders"_s};
    QTest::newRow("one host, two ports") << QStringList{u"ssh://db1:2201/a.sock"_s, u"ssh://db1:2202/b.sock"_s,
                                                        u"ssh://db2/c.sock"_s}
                                         << QStringList{u"db1:2201"_s, u"db1:2202"_s, u"db2"_s};
    QTest::newRow("one host, no ports: numbered")
        << QStringList{u"ssh://db1/a.sock"_s, u"ssh://ops@db1/b.sock"_s} << QStringList{u"db1"_s, u"db1 (2)"_s};
    QTest::newRow("a database and a host of one name")
        << QStringList{u"/run/a.sock=db1"_s, u"ssh://db1/b.sock"_s} << QStringList{u"db1"_s, u"db1 (2)"_s};
    QTest::newRow("a number already taken") << QStringList{u"/a/x.sock=x"_s, u"/b/x.sock=x (2)"_s, u"/c/x.sock=x"_s}
                                            << QStringList{u"x"_s, u"x (2)"_s, u"x (3)"_s};
}

void TestSystemNames::uniqueNames()
{
    QFETCH(QStringList, systems);
    QFETCH(QStringList, names);
    QList<SystemNames::System> list;
    for (const QString &spec : std::as_const(systems))
        list.append(system(spec));
    QCOMPARE(SystemNames::unique(list), names);
}

QTEST_APPLESS_MAIN(TestSystemNames)
#include "tst_systemnames.moc"
