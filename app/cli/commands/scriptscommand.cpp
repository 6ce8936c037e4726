// delayq scripts [--dump DIR]: the scripts exactly as delayq sends them, for clients in other
// languages (docs/protocol.md).
#include "commands/commands.h"
#include "output/textoutput.h"

#include <delayq/script.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace cli {

namespace {

// The protocol a client of another language is written against: the key layout and the
// script contracts of docs/protocol.md. Raised with any change such a client must follow (a
// key, a record field, a script's KEYS, ARGV or reply); docs/protocol.md names the same
// (tests/protocol/tst_pythonproducer checks that).
constexpr const char* kProtocol = "layout 3.1";

// The PROTOCOL file of a dump: the version line, then "NAME.lua SHA1" for each script.
std::string manifest()
{
    std::string text = std::string("delayq-protocol: ") + kProtocol + "\n";
    for (const delayq::Script* s : delayq::scripts::all())
        text += std::string(s->name) + ".lua " + std::string(s->sha1) + "\n";
    return text;
}

// Written beside and renamed into place, so a reader never sees half a script.
void writeFile(const std::filesystem::path& path, std::string_view text)
{
    const std::filesystem::path temporary = path.string() + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.close();
        if (!out)
            throw std::runtime_error("cannot write '" + temporary.string() + "'");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec)
        throw std::runtime_error("cannot write '" + path.string() + "': " + ec.message());
}

void dump(const std::string& dir)
{
    if (dir.empty())
        throw UsageError("--dump needs a folder");
    const std::filesystem::path folder(dir);
    std::error_code ec;
    // A file in the way is refused before anything is written.
    if (std::filesystem::exists(folder, ec) && !std::filesystem::is_directory(folder, ec))
        throw std::runtime_error("'" + dir + "' exists and is not a folder");
    std::filesystem::create_directories(folder, ec);
    if (ec)
        throw std::runtime_error("cannot create the folder '" + dir + "': " + ec.message());
    for (const delayq::Script* s : delayq::scripts::all())
        writeFile(folder / (std::string(s->name) + ".lua"), s->source);
    writeFile(folder / "PROTOCOL", manifest());
}

} // namespace

int runScripts(Context& ctx)
{
    ctx.args().parse({{"dump", true}}, 0, 0);
    const bool dumping = ctx.args().has("dump");
    if (dumping)
        dump(ctx.args().value("dump"));
    if (ctx.json()) {
        JsonWriter j;
        j.beginObject().field("protocol", kProtocol);
        if (dumping)
            j.field("dir", ctx.args().value("dump"));
        j.key("scripts").beginArray();
        for (const delayq::Script* s : delayq::scripts::all())
            j.beginObject().field("name", s->name).field("sha1", s->sha1).endObject();
        j.endArray().endObject();
        ctx.printJson(j);
    } else if (dumping) {
        ctx.print("wrote " + std::to_string(delayq::scripts::all().size()) +
                  " scripts and PROTOCOL (" + kProtocol + ") to " +
                  printable(ctx.args().value("dump")) + "\n");
    } else {
        ctx.print(manifest());
    }
    return ExitOk;
}

} // namespace cli
