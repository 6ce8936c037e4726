#include "client/exportclient.h"

#include "client/exportsteps.h"

namespace delayq::ui {

ExportClient::ExportClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<ExportResult>();
}

void ExportClient::exportTasks(quint64 tag, const ExportRequest& request)
{
    run(ExportSteps::job(
        io(), tag, request, [this, tag] { return m_cancelledExport.load() == tag; },
        [this](const ExportResult& r) {
            deliver(&ExportClient::exportProgressed, r.tag, r.written, r.total);
        },
        [this](const ExportResult& r) { deliver(&ExportClient::exportFinished, r); }));
}

} // namespace delayq::ui
