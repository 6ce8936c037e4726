#include <delayq/auditlog.h>

#include <delayq/error.h>

#include <charconv>
#include <utility>

namespace delayq {

namespace {

long long leadingNumber(const std::string& text)
{
    long long value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

// The fields of an entry that are text as written (the stream field names of lua/common.lua's
// audit).
const std::pair<const char*, std::string AuditEntry::*> kTextFields[] = {
    {"action", &AuditEntry::action},   {"detail", &AuditEntry::detail}, {"user", &AuditEntry::user},
    {"os_user", &AuditEntry::osUser},  {"host", &AuditEntry::host},     {"tool", &AuditEntry::tool},
    {"version", &AuditEntry::version}, {"bin", &AuditEntry::bin}};

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

} // namespace

AuditLog::AuditLog(Connection& connection, Keys keys)
    : m_connection(connection), m_keys(std::move(keys))
{}

std::vector<AuditEntry> AuditLog::read(long long sinceMs, int limit)
{
    if (limit < 1 || limit > 10000)
        throw Error(ErrorCode::InvalidArgument, "an audit read takes 1 to 10000 entries");
    if (sinceMs < 0)
        throw Error(ErrorCode::InvalidArgument, "the audit's start must not be before 1970");
    const Reply reply = m_connection.command({"XREVRANGE", m_keys.audit(), "+",
                                              sinceMs > 0 ? std::to_string(sinceMs) : "-", "COUNT",
                                              std::to_string(limit)});
    std::vector<AuditEntry> entries;
    entries.reserve(reply.elements.size());
    for (const auto& element : reply.elements)
        entries.push_back(parse(element));
    return entries;
}

AuditEntry AuditLog::parse(const Reply& element)
{
    if (!element.isArray() || element.elements.size() < 2)
        throw Error(ErrorCode::Protocol, "unexpected reply shape from XREVRANGE");
    AuditEntry entry;
    entry.id = element.elements[0].str;
    entry.timeMs = leadingNumber(entry.id);
    const auto& fields = element.elements[1].elements;
    for (size_t i = 0; i + 1 < fields.size(); i += 2) {
        const std::string& name = fields[i].str;
        const std::string& value = fields[i + 1].str;
        if (name == "count")
            entry.count = leadingNumber(value);
        else if (name == "ids")
            entry.ids = splitLines(value);
        for (const auto& [field, member] : kTextFields)
            if (name == field)
                entry.*member = value;
    }
    return entry;
}

} // namespace delayq
