#pragma once

#include "client/requesterror.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace delayq::ui {

// One group of a queue in fair order, as the Groups tab shows it (delayq::GroupLoad).
struct GroupRow
{
    QString group; // "" = the tasks pushed without a group
    qint64 dueWaiting = 0;
    qint64 active = 0;
    bool atCap = false;
    bool atRate = false;
};

// The busiest groups of a queue (QueueReader::busyGroups), read on the I/O thread.
struct GroupsResult
{
    quint64 tag = 0;
    QString queue;
    bool fair = false; // false: the queue hands out in due order; nothing else was read
    qint64 groupCap = 0;
    qint64 ready = 0;
    qint64 atCap = 0;
    qint64 atRate = 0;
    qint64 known = 0;  // on a sharded queue: the most any one shard tracks
    qint64 shards = 1; // the shards read
    qint64 examined = 0;
    bool complete = true;
    QList<GroupRow> rows; // the busiest first
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::GroupsResult)
