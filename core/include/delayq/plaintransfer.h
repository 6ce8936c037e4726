#pragma once

#include <delayq/connection.h>
#include <delayq/plainqueue.h>

#include <memory>
#include <string>
#include <vector>

namespace delayq {

class ScoreWindow;

// Export and import of a plain sorted set (docs/cli.md, "Export and import"): members with
// their scores exactly as Redis holds them. The export reads windows of `step` members in
// score order (core/scorewindow.h: a cursor by score and member, so pops shift nothing);
// the import adds members in pipelined ZADDs of at most kBatch. Synchronous, throws Error.
class PlainTransfer
{
public:
    static constexpr size_t kBatch = 1000;

    PlainTransfer(Connection& connection, std::string key, int step = 1000);
    ~PlainTransfer();

    std::vector<PlainQueue::Member> next();
    bool atEnd() const;

    // replace: a member already there takes the imported score; else it keeps its own (NX).
    // Per member: true when it was added or its score changed.
    static std::vector<bool> importBatch(Connection& connection, const std::string& key,
                                         const std::vector<PlainQueue::Member>& members,
                                         bool replace);

private:
    std::unique_ptr<ScoreWindow> m_window;
};

} // namespace delayq
