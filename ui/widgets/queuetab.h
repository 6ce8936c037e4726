#pragma once

#include <QWidget>

class QLabel;

namespace delayq::ui {

// A dock tab that shows one part of the open queue (its audit trail, its groups), read on the
// I/O thread only while the tab is in front: hidden behind another tab it costs nothing, and
// it loads when shown. With no queue open, or a plain sorted set, a note takes the view's
// place.
class QueueTab : public QWidget
{
    Q_OBJECT

public:
    void setQueue(const QString& queue);
    void setPlain(bool plain);
    // Asks for the open queue's part, unless hidden, not a queue, or a request is in flight.
    void refresh();
    bool isNoteShown() const;

protected:
    explicit QueueTab(QWidget* parent);
    void showEvent(QShowEvent* event) override;

    // Sends the request for the open queue's part; returns its tag.
    virtual quint64 request() = 0;
    // Another queue is open: what was shown of the last one goes.
    virtual void forget() = 0;
    // Shows the note, or the view, as the queue and the last reply say.
    virtual void updateNote() = 0;
    // True for the reply to the request in flight, which then is no longer; a reply to an
    // earlier request (another queue) is not.
    bool isAwaited(quint64 tag);
    // The centred, greyed label a note is said in.
    QLabel* makeNote();

    QString m_queue;
    bool m_plain = false;
    QLabel* m_note = nullptr;

private:
    bool m_inFlight = false;
    quint64 m_tag = 0;
};

} // namespace delayq::ui
