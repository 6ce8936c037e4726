#include "client/exportsteps.h"

#include "client/ioworker.h"
#include "client/membertext.h"
#include "client/taskrows.h"

#include <delayq/error.h>
#include <delayq/plaintransfer.h>
#include <delayq/queue.h>
#include <delayq/taskexport.h>

#include <taskline.h>

#include <QCoreApplication>
#include <QSaveFile>

#include <memory>

namespace delayq::ui {

namespace {

constexpr int kTasksPerStep = 500;
constexpr int kMembersPerStep = 1000;

// What the steps share. Created by the first step, on the I/O thread, where it stays.
struct ExportState
{
    ExportRequest request;
    ExportResult result;
    std::unique_ptr<QSaveFile> file;
    std::unique_ptr<delayq::Queue> queue;
    std::unique_ptr<delayq::TaskExport> tasks;
    std::unique_ptr<delayq::PlainTransfer> members;
    qsizetype nextId = 0; // of request.ids

    void write(const std::string& line)
    {
        if (file->write(line.data(), qint64(line.size())) != qint64(line.size()) ||
            !file->putChar('\n'))
            throw delayq::Error(
                delayq::ErrorCode::Protocol,
                QCoreApplication::translate("delayq::ui::ExportSteps", "cannot write %1: %2")
                    .arg(request.path, file->errorString())
                    .toStdString());
        ++result.written;
    }
    void start(delayq::Connection& c, const std::string& prefix);
    bool step();
};

void ExportState::start(delayq::Connection& c, const std::string& prefix)
{
    file = std::make_unique<QSaveFile>(request.path);
    if (!file->open(QIODevice::WriteOnly))
        throw delayq::Error(
            delayq::ErrorCode::InvalidArgument,
            QCoreApplication::translate("delayq::ui::ExportSteps", "cannot write %1: %2")
                .arg(request.path, file->errorString())
                .toStdString());
    if (request.plain) {
        members = std::make_unique<delayq::PlainTransfer>(c, MemberText::toBytes(request.queue),
                                                          kMembersPerStep);
        result.total = delayq::PlainQueue(c, MemberText::toBytes(request.queue),
                                          delayq::PlainQueue::ScoreUnit::Milliseconds)
                           .size();
        return;
    }
    queue = std::make_unique<delayq::Queue>(c, MemberText::toBytes(request.queue), prefix);
    if (!request.ids.isEmpty()) {
        result.total = request.ids.size();
        return;
    }
    std::vector<delayq::TaskSet> sets;
    for (TaskSet set : request.sets)
        sets.push_back(set);
    tasks = std::make_unique<delayq::TaskExport>(*queue, sets, kTasksPerStep);
    tasks->setMatch(MemberText::toBytes(request.match));
    result.total = tasks->total();
}

// One window; true when there is more.
bool ExportState::step()
{
    if (members) {
        for (const auto& m : members->next())
            write(delayq::TaskLine::fromMember(m));
        return !members->atEnd();
    }
    if (tasks) {
        for (const auto& t : tasks->next())
            write(delayq::TaskLine::fromTask(t));
        result.broken = tasks->brokenSkipped();
        return !tasks->atEnd();
    }
    const qsizetype end = qMin(request.ids.size(), nextId + kTasksPerStep);
    const auto found =
        delayq::TaskExport::readIds(*queue, TaskRows::ids(request.ids.mid(nextId, end - nextId)));
    for (const auto& t : found)
        write(delayq::TaskLine::fromTask(t));
    nextId = end;
    return nextId < request.ids.size();
}

} // namespace

SteppedJob ExportSteps::job(IoWorker* io, quint64 tag, const ExportRequest& request,
                            std::function<bool()> cancelled,
                            std::function<void(const ExportResult&)> progressed,
                            std::function<void(const ExportResult&)> finished)
{
    auto state = std::make_shared<ExportState>();
    state->request = request;
    state->result.tag = tag;
    state->result.queue = request.queue;
    state->result.path = request.path;
    SteppedJob job;
    job.operation = QCoreApplication::translate("delayq::ui::ExportSteps", "export");
    job.cancelled = std::move(cancelled);
    job.step = [io, state](delayq::Connection& c) {
        if (!state->file)
            state->start(c, io->prefix());
        return state->step();
    };
    job.progressed = [state, progressed] { progressed(state->result); };
    job.finished = [state, finished](SteppedJob::End end, const RequestError& error) {
        state->result.cancelled = end == SteppedJob::End::Cancelled;
        state->result.error = error;
        // Only a whole export replaces the file: a cancelled or failed one leaves it as it was.
        if (state->file && end == SteppedJob::End::Done && error.isEmpty() &&
            !state->file->commit())
            state->result.error = RequestError::other(
                delayq::ErrorCode::Protocol,
                QCoreApplication::translate("delayq::ui::ExportSteps", "cannot write %1: %2")
                    .arg(state->request.path, state->file->errorString()),
                QCoreApplication::translate("delayq::ui::ExportSteps", "export"));
        state->file.reset();
        finished(state->result);
    };
    return job;
}

} // namespace delayq::ui
