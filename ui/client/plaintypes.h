#pragma once

#include "client/requesterror.h"
#include "client/tasktypes.h"

#include <QList>
#include <QMetaType>
#include <QString>

// The values of the plain-key requests (PlainClient) that cross from the I/O thread to the GUI.

namespace delayq::ui {

// A sorted set outside the delayq prefix whose scores look like due times.
struct PlainKeyRow
{
    QString key;
    QString unit; // "ms" | "s"
    qint64 size = 0;
};

struct PlainDiscoveryResult
{
    quint64 tag = 0;
    QList<PlainKeyRow> keys;
    bool complete = false; // the whole keyspace was scanned within the step budget
    RequestError error;
};

// One step of a search through a plain key's members; the GUI appends `matches`.
struct PlainScanResult
{
    quint64 tag = 0;
    QString key;
    QList<TaskRow> matches; // found in this step only
    qint64 scanned = 0;     // members read so far (ZSCAN may read a few twice)
    qint64 total = 0;       // the key's size when the search started
    bool finished = false;  // the last step: complete, capped, cancelled or failed
    bool complete = false;  // every member was read
    bool capped = false;    // stopped at the most matches one search shows
    bool cancelled = false;
    RequestError error;
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::PlainDiscoveryResult)
Q_DECLARE_METATYPE(delayq::ui::PlainScanResult)
