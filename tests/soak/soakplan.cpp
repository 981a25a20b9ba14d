// SPDX-License-Identifier: AGPL-3.0-or-later
#include "soakplan.h"

#include <QRandomGenerator>

using namespace Qt::StringLiterals;

const QStringList SoakPlan::Stages{u"a"_s, u"b"_s, u"c"_s};

namespace {

struct Fault
{
    const char *mode;
    double share; // of the (message, stage) pairs
};

// The mix the soak asks for; everything else is "ok".
constexpr Fault Faults[] = {
    {"crash", 0.005},
    {"hang", 0.002},
    {"garbage", 0.005},
    {"pause-once:200", 0.01},
    {"tempfail-once", 0.01},
    {"commit-crash", 0.005},
    // Hostile output (doc/stage-programs.rst): reasons PostgreSQL cannot store as written,
    // a reason far over the limit, a stderr flood.
    {"nul-reason", 0.002},
    {"bad-utf8", 0.002},
    {"long-reason:200000", 0.002},
    {"stderr-flood:20000", 0.001},
    {"stdout-flood:4000000", 0.0005},
};

// The reason of the fake worker's hostile answers ("3 <raw> / 3 fake failure"), cleaned.
QString hostileError(const QString &mode)
{
    const QString replaced(QChar::ReplacementCharacter);
    if (mode == u"nul-reason"_s)
        return u"status 3: bad"_s + replaced + u"reason / 3 fake failure"_s;
    if (mode == u"bad-utf8"_s)
        return u"status 3: bad "_s + replaced + replaced + u" utf-8 "_s + replaced + u"[0m / 3 fake failure"_s;
    if (mode.startsWith(u"long-reason:"_s))
        return u"status 3: "_s + QString(1000, u'r');
    return {};
}

QString modeOf(const QJsonObject &fake, const QString &stage)
{
    const QString mode = fake.value(stage).toString();
    return mode.isEmpty() ? u"ok"_s : mode;
}

} // namespace

SoakPlan::SoakPlan(int messages, quint32 seed)
{
    QRandomGenerator random(seed);
    m_fakes.reserve(messages);
    for (int i = 0; i < messages; ++i) {
        QJsonObject fake;
        for (const QString &stage : Stages) {
            double roll = random.generateDouble();
            for (const Fault &fault : Faults) {
                if (roll < fault.share) {
                    fake.insert(stage, QString::fromLatin1(fault.mode));
                    ++m_faultCounts[stage][QString::fromLatin1(fault.mode)];
                    break;
                }
                roll -= fault.share;
            }
        }
        m_fakes.append(fake);
    }
}

SoakPlan::Expected SoakPlan::expected(int index) const
{
    const QJsonObject &fake = m_fakes.at(index);
    Expected out;
    for (const QString &stage : Stages) {
        const QString mode = modeOf(fake, stage);
        out.stage = stage;
        if (mode == u"crash"_s) {
            out.status = u"failed"_s;
            out.error = u"crashed: signal 6"_s;
            return out;
        }
        if (mode == u"hang"_s) {
            out.status = u"timeout"_s;
            out.error = u"timeout after %1 s"_s.arg(MaxRuntimeSeconds);
            return out;
        }
        if (mode == u"garbage"_s) {
            out.status = u"failed"_s;
            out.error = u"protocol error: \"this is not a status line\""_s;
            return out;
        }
        if (mode.startsWith(u"stdout-flood:"_s)) { // garbage without a newline, killed after the SIGTERM grace
            out.status = u"failed"_s;
            out.error = u"protocol error: \"x"_s;
            out.errorIsPrefix = true;
            return out;
        }
        if (const QString error = hostileError(mode); !error.isEmpty()) {
            out.status = u"failed"_s;
            out.error = error;
            return out;
        }
        // The pause is a write of its own; commit-crash commits before it dies.
        out.runs.insert(stage, mode.startsWith(u"pause-once"_s) ? 2 : 1);
        out.triedLater = out.triedLater || mode == u"tempfail-once"_s;
    }
    out.status = u"done"_s;
    return out;
}
