#pragma once

#include <QObject>
#include <QString>

namespace delayq::ui {

// What the window has open, in one place: the server (as shown, password masked), the queue or
// plain key (with its unit), whether the
// connection may write and why not, the zone of the times shown and the server clock's
// offset. The pieces of the window follow it instead of the window calling each piece's
// setters by hand, so no piece can be left showing or acting on another queue.
class OpenQueue : public QObject
{
    Q_OBJECT

public:
    explicit OpenQueue(QObject* parent = nullptr) : QObject(parent) {}

    QString server() const { return m_server; }
    QString name() const { return m_name; }
    bool isPlain() const { return m_plain; }
    QString unit() const { return m_unit; }
    bool isReadOnly() const { return m_readOnly; }
    QString readOnlyReason() const { return m_readOnlyReason; }
    bool isUtc() const { return m_utc; }
    qint64 clockOffsetMs() const { return m_clockOffsetMs; }

    // A native queue ("": none), or a plain sorted set with its unit ("ms" | "s", or "" until
    // the I/O thread has detected it). Opening the same again reloads it.
    void open(const QString& name, bool plain, const QString& unit = {});
    // The unit detected for a plain key; ignored when another is open by then.
    void setUnit(const QString& key, const QString& unit);
    void setReadOnly(bool readOnly, const QString& reason);
    // The server the window is connected to, as confirmations name it.
    void setServer(const QString& server);
    void setUtc(bool utc);
    void setClockOffset(qint64 ms);

    // From now on `piece` shows what is open: each of these setters it has is called with the
    // state now and again on each change — setPlain(bool) or setPlain(bool, unit) before
    // setQueue(name) or setQueue(name, plain), setReadOnly(bool, reason) or setReadOnly(bool),
    // setServer(server), setUtc(bool), setClockOffset(ms). A piece that aims elsewhere (the queue
    // actions aim at the Overview's selected row while it is shown) is not given to follow().
    template <class Piece> void follow(Piece* piece);

signals:
    void opened();
    void unitChanged();
    void readOnlyChanged();
    void serverChanged();
    void utcChanged();
    void clockOffsetChanged();

private:
    template <class Piece> void showTarget(Piece* piece) const;
    template <class Piece> void showReadOnly(Piece* piece) const;

    QString m_server;
    QString m_name;
    bool m_plain = false;
    QString m_unit;
    bool m_readOnly = false;
    QString m_readOnlyReason;
    bool m_utc = false;
    qint64 m_clockOffsetMs = 0;
};

template <class Piece> void OpenQueue::showTarget(Piece* piece) const
{
    if constexpr (requires { piece->setPlain(true, QString()); })
        piece->setPlain(m_plain, m_unit);
    else if constexpr (requires { piece->setPlain(true); })
        piece->setPlain(m_plain);
    if constexpr (requires { piece->setQueue(QString(), true); })
        piece->setQueue(m_name, m_plain);
    else if constexpr (requires { piece->setQueue(QString()); })
        piece->setQueue(m_name);
}

template <class Piece> void OpenQueue::showReadOnly(Piece* piece) const
{
    if constexpr (requires { piece->setReadOnly(true, QString()); })
        piece->setReadOnly(m_readOnly, m_readOnlyReason);
    else
        piece->setReadOnly(m_readOnly);
}

template <class Piece> void OpenQueue::follow(Piece* piece)
{
    constexpr bool hasTarget = requires
    {
        piece->setQueue(QString());
    }
    || requires
    {
        piece->setPlain(true);
    };
    if constexpr (hasTarget) {
        showTarget(piece);
        connect(this, &OpenQueue::opened, piece, [this, piece] { showTarget(piece); });
    }
    if constexpr (requires { piece->setPlain(true, QString()); })
        connect(this, &OpenQueue::unitChanged, piece,
                [this, piece] { piece->setPlain(m_plain, m_unit); });
    if constexpr (
        requires { piece->setReadOnly(true, QString()); } ||
        requires { piece->setReadOnly(true); }) {
        showReadOnly(piece);
        connect(this, &OpenQueue::readOnlyChanged, piece, [this, piece] { showReadOnly(piece); });
    }
    if constexpr (requires { piece->setServer(QString()); }) {
        piece->setServer(m_server);
        connect(this, &OpenQueue::serverChanged, piece,
                [this, piece] { piece->setServer(m_server); });
    }
    if constexpr (requires { piece->setUtc(true); }) {
        piece->setUtc(m_utc);
        connect(this, &OpenQueue::utcChanged, piece, [this, piece] { piece->setUtc(m_utc); });
    }
    if constexpr (requires { piece->setClockOffset(qint64()); }) {
        piece->setClockOffset(m_clockOffsetMs);
        connect(this, &OpenQueue::clockOffsetChanged, piece,
                [this, piece] { piece->setClockOffset(m_clockOffsetMs); });
    }
}

} // namespace delayq::ui
