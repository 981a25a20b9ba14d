// SPDX-License-Identifier: AGPL-3.0-or-later
#include "core/settlementwriter.h"

#include "model/logcategories.h"
#include "policy/backoff.h"
#include "storage/databasesession.h"

namespace pepsi {

using namespace std::chrono_literals;

namespace {

// After a failed write, the first hold, doubled up to the cap: every try costs
// the lock_timeout wait of a locked row.
constexpr Backoff WriteHold{1s, 8s};

} // namespace

SettlementWriter::SettlementWriter(QObject *parent)
    : QObject(parent)
{
    m_hold.setSingleShot(true);
    connect(&m_hold, &QTimer::timeout, this, &SettlementWriter::holdOver);
}

QList<qint64> SettlementWriter::ids() const
{
    QList<qint64> ids;
    ids.reserve(m_pending.size());
    for (const Settlement &settlement : m_pending)
        ids.append(settlement.ticket.id);
    return ids;
}

QList<qint64> SettlementWriter::write(bool force)
{
    if (m_pending.isEmpty() || !m_mayWrite || !m_session || !m_session->isUp())
        return {};
    if (m_hold.isActive() && !force)
        return {};
    const auto changed = m_session->store().settle(m_pending);
    if (!changed) {
        qCDebug(lcStore) << "keeping" << m_pending.size() << "outcomes to write later";
        if (m_session->statementFailed(m_session->store().lastError())) {
            // A live connection: most likely a row another session holds
            // locked (lock_timeout). Every try costs that wait, so back off
            // while claims go on; the outcomes stay in memory meanwhile.
            ++m_failures;
            m_hold.start(WriteHold.delay(m_failures));
        }
        return {};
    }
    m_failures = 0;
    qCDebug(lcStore) << "settled" << *changed << "of" << m_pending.size() << "messages";
    QList<qint64> written = ids();
    m_pending.clear();
    return written;
}

void SettlementWriter::abandon()
{
    m_mayWrite = false;
    m_pending.clear();
}

} // namespace pepsi
