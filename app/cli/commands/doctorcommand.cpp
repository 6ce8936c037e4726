// `delayq doctor`: what the server's configuration risks for the queues, and how to fix it.
#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/doctor.h>
#include <delayq/timeparse.h>

namespace cli {

int runDoctor(Context& ctx)
{
    Args& a = ctx.args();
    a.parse({{"sample", true}}, 0, 0);
    const long long sampleMs = a.duration("sample", 1000);
    if (sampleMs > 60'000)
        throw UsageError("--sample must be at most 1m");
    const std::vector<delayq::Finding> findings = delayq::Doctor(ctx.connection(), ctx.global().prefix).run(sampleMs);
    bool problem = false;
    for (const auto& f : findings)
        problem = problem || f.level == delayq::Finding::Level::Problem;
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().key("findings").beginArray();
        for (const auto& f : findings)
            j.beginObject()
                .field("level", delayq::findingLevelName(f.level))
                .field("check", f.check)
                .field("server", f.server)
                .field("what", f.what)
                .field("risk", f.risk)
                .field("fix", f.fix)
                .endObject();
        j.endArray().field("problems", problem).endObject();
        ctx.printJson(j);
        return problem ? ExitRefused : ExitOk;
    }
    std::string out;
    for (const auto& f : findings) {
        std::string level = delayq::findingLevelName(f.level);
        level.resize(8, ' ');
        std::string check = f.check;
        check.resize(std::max<size_t>(12, check.size() + 1), ' ');
        out += level + check + printable(f.server) + "  " + printable(f.what) + "\n";
        if (!f.risk.empty())
            out += "                    risk: " + printable(f.risk) + "\n";
        if (!f.fix.empty())
            out += "                    fix:  " + printable(f.fix) + "\n";
    }
    out +=
        problem ? "problems found: tasks can be lost or refused (exit 1)\n" : "no problem found\n";
    ctx.print(out);
    return problem ? ExitRefused : ExitOk;
}

} // namespace cli
