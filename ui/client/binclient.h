#pragma once

#include "client/areaclient.h"
#include "client/bintypes.h"

namespace delayq::ui {

// The requests on a native queue's recycle bin (docs/design/bin.md): what can be restored,
// and the restore of one removal (its action) or of everything.
class BinClient : public AreaClient
{
    Q_OBJECT

public:
    BinClient(IoWorker* io, QObject* parent);

    void load(quint64 tag, const QString& queue);
    // action empty: everything the bin holds. Each task goes back as it was.
    void restore(quint64 tag, const QString& queue, const QString& action);

signals:
    void loaded(const delayq::ui::BinListResult& result);
    void restored(const delayq::ui::BinRestoreResult& result);
};

} // namespace delayq::ui
