#pragma once

#include "client/areaclient.h"
#include "client/exporttypes.h"

#include <atomic>

namespace delayq::ui {

// Export…: the tasks of a queue to a file, in bounded steps (ExportSteps).
class ExportClient : public AreaClient
{
    Q_OBJECT

public:
    ExportClient(IoWorker* io, QObject* parent);

    // exportProgressed after each step, exportFinished once. A cancelled export leaves no file.
    void exportTasks(quint64 tag, const ExportRequest& request);
    void cancelExport(quint64 tag) { m_cancelledExport.store(tag); }

signals:
    void exportProgressed(quint64 tag, qint64 written, qint64 total);
    void exportFinished(const delayq::ui::ExportResult& result);

private:
    std::atomic<quint64> m_cancelledExport{0};
};

} // namespace delayq::ui
