// SPDX-License-Identifier: AGPL-3.0-or-later
#include "notifysink.h"

#include <QFile>

#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

NotifySink::NotifySink()
{
    ::chmod(QFile::encodeName(m_dir.path()).constData(), 0755);
    m_path = m_dir.filePath(u"notify"_s);
    m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray path = QFile::encodeName(m_path);
    if (m_fd < 0 || size_t(path.size()) >= sizeof(address.sun_path))
        return;
    std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
    if (::bind(m_fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(m_fd);
        m_fd = -1;
        return;
    }
    ::chmod(path.constData(), 0666);
    m_clock.start();
    m_notifier = std::make_unique<QSocketNotifier>(m_fd, QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, &NotifySink::drain);
}

NotifySink::~NotifySink()
{
    m_notifier.reset();
    if (m_fd >= 0)
        ::close(m_fd);
}

QList<NotifySink::Message> NotifySink::all() const
{
    // What came after the last event-loop pass too (STOPPING=1 just before the exit).
    drain();
    return m_messages;
}

QList<NotifySink::Message> NotifySink::with(const QByteArray &field) const
{
    QList<Message> found;
    for (const Message &message : all()) {
        const QByteArrayList lines = message.text.split('\n');
        for (const QByteArray &line : lines) {
            if (field.endsWith('=') ? line.startsWith(field) : line == field) {
                found.append(message);
                break;
            }
        }
    }
    return found;
}

QStringList NotifySink::statuses() const
{
    QStringList values;
    for (const Message &message : with("STATUS=")) {
        for (const QByteArray &line : message.text.split('\n')) {
            if (line.startsWith("STATUS="))
                values.append(QString::fromUtf8(line.mid(7)));
        }
    }
    return values;
}

QString NotifySink::describe() const
{
    QStringList lines;
    for (const Message &message : all())
        lines.append(u"%1 ms: %2"_s.arg(message.atMs).arg(QString::fromUtf8(message.text).replace(u"\n"_s, u" | "_s)));
    return lines.join(u'\n');
}

void NotifySink::drain() const
{
    char buffer[4096];
    if (m_fd < 0)
        return;
    for (;;) {
        const ssize_t n = ::recv(m_fd, buffer, sizeof(buffer), 0);
        if (n < 0)
            return;
        m_messages.append({m_clock.elapsed(), QByteArray(buffer, n)});
    }
}
