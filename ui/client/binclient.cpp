#include "client/binclient.h"

#include "client/ioworker.h"
#include "client/taskrows.h"
#include <delayq/queue.h>
#include <delayq/recyclebin.h>

namespace delayq::ui {

BinClient::BinClient(IoWorker* io, QObject* parent) : AreaClient(io, parent)
{
    qRegisterMetaType<BinListResult>();
    qRegisterMetaType<BinRestoreResult>();
}

void BinClient::load(quint64 tag, const QString& queue)
{
    request(&BinClient::loaded, answerTo<BinListResult>(tag, queue), tr("read the recycle bin"),
            [this, queue](delayq::Connection& c, BinListResult& r) {
                auto q = io()->nativeQueue(c, queue);
                for (const delayq::BinAction& a : delayq::RecycleBin(q).actions())
                    r.rows.append({TaskRows::text(a.action), TaskRows::text(a.kind), a.tasks,
                                   a.removedMs, TaskRows::text(a.auditEntry)});
            });
}

void BinClient::restore(quint64 tag, const QString& queue, const QString& action)
{
    auto result = answerTo<BinRestoreResult>(tag, queue);
    result.action = action;
    request(&BinClient::restored, result, tr("restore from the recycle bin"),
            [this, queue, action](delayq::Connection& c, BinRestoreResult& r) {
                auto q = io()->nativeQueue(c, queue);
                delayq::RecycleBin bin(q);
                const auto outcomes =
                    action.isEmpty() ? bin.restoreAll() : bin.restoreAction(action.toStdString());
                for (const delayq::IdResult& o : outcomes) {
                    if (o.status == delayq::IdResult::Status::Done)
                        ++r.restored;
                    else if (o.status == delayq::IdResult::Status::Exists)
                        r.exists.append(TaskRows::text(o.id));
                    else
                        ++r.gone;
                }
            });
}

} // namespace delayq::ui
