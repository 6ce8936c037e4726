#include "amqpurl.h"

#include "transport/urltext.h"
#include <delayq/error.h>

#include <algorithm>
#include <cctype>

namespace delayq::amqp {

namespace {

const UrlText kUrl("RabbitMQ URL",
                   "amqp://[user[:password]@]host[:port][/vhost]?exchange=E[&routing_key=K]"
                   "[&max_message_size=BYTES][&content_type=T][&type=T][&header.NAME=V]"
                   "[&task_header.NAME=id|attempt|queue|due][&delayq_headers=0][&priority=P]"
                   "[&expiration=MS][&dead_exchange=D[&dead_routing_key=R]], or "
                   "amqps://… with the TLS keys ca, ca_dir, cert, key, sni, insecure",
                   "amqp://", "amqps://");

constexpr size_t kPropertyTextMax = 255; // an AMQP shortstr: content_type, type, header names
constexpr size_t kHeaderNameMax = 128;   // what RabbitMQ takes as a field table key

// A shortstr property's value: %-decoded, 1..255 bytes, no control characters.
std::string shortText(const std::string& value, const std::string& key)
{
    std::string text = kUrl.percentDecode(value, key);
    if (text.empty())
        kUrl.refuse(key + " is empty (leave the key out for the default)");
    if (text.size() > kPropertyTextMax)
        kUrl.refuse(key + " is longer than 255 bytes (an AMQP short string)");
    if (UrlText::hasControl(text))
        kUrl.refuse(key + " contains control characters");
    return text;
}

bool startsWithNoCase(const std::string& s, const std::string& prefix)
{
    return s.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}

// header.NAME= and task_header.NAME=: NAME %-decoded, 1..128 bytes, not delayq's own
// x-delayq-* (a consumer must be able to trust those), and not given twice.
std::string headerName(const std::string& written, const std::string& key,
                       const MessageSettings& message)
{
    const std::string name = kUrl.percentDecode(written, key + " name");
    if (name.empty())
        kUrl.refuse(key + "= needs a header name after the dot");
    if (name.size() > kHeaderNameMax)
        kUrl.refuse("the header name of " + key + " is longer than 128 bytes");
    if (UrlText::hasControl(name))
        kUrl.refuse("the header name of " + key + " contains control characters");
    if (startsWithNoCase(name, "x-delayq-"))
        kUrl.refuse(key + "." + name + "= names one of delayq's own headers (x-delayq-*)");
    for (const auto& h : message.headers)
        if (h.name == name)
            kUrl.refuse("the header " + name + " is set twice (header. or task_header.)");
    return name;
}

MessageSettings::TaskField taskField(const std::string& value, const std::string& key)
{
    if (value == "id")
        return MessageSettings::TaskField::Id;
    if (value == "attempt")
        return MessageSettings::TaskField::Attempt;
    if (value == "queue")
        return MessageSettings::TaskField::Queue;
    if (value == "due")
        return MessageSettings::TaskField::Due;
    kUrl.refuse(key + "= must be id, attempt, queue or due");
}

// The message property keys; false when name is none of them.
bool applyMessageKey(const std::string& name, const std::string& value, AmqpUrl& url)
{
    MessageSettings& m = url.message;
    // Each header costs its name, a length byte, a kind byte and its value (a 4-byte length
    // and the text, or 8 bytes of integer).
    if (name == "content_type") {
        m.contentType = shortText(value, "content_type=");
        m.staticSize += m.contentType->size() + 1;
    } else if (name == "type") {
        m.type = shortText(value, "type=");
        m.staticSize += m.type.size() + 1;
    } else if (name == "delayq_headers") {
        m.delayqHeaders = kUrl.parseSwitch(value, "delayq_headers=");
    } else if (name == "priority") {
        m.priority = kUrl.parseNumber(value, 0, 255, "priority=");
    } else if (name == "expiration") {
        // RabbitMQ reads the expiration as a whole number of milliseconds written in digits.
        m.expiration = std::to_string(kUrl.parseNumber(value, 0, 2147483647, "expiration="));
        m.staticSize += m.expiration->size() + 1;
    } else if (name.rfind("header.", 0) == 0) {
        MessageSettings::Header h;
        h.name = headerName(name.substr(7), "header", m);
        h.value = kUrl.percentDecode(value, "value of header." + h.name);
        m.staticSize += h.name.size() + h.value.size() + 6;
        m.headers.push_back(std::move(h));
    } else if (name.rfind("task_header.", 0) == 0) {
        MessageSettings::Header h;
        h.name = headerName(name.substr(12), "task_header", m);
        h.field = taskField(value, "task_header." + h.name);
        h.fromTask = true;
        m.staticSize += h.name.size() + 10;
        m.idHeaders += h.field == MessageSettings::TaskField::Id ? 1 : 0;
        m.queueHeaders += h.field == MessageSettings::TaskField::Queue ? 1 : 0;
        m.headers.push_back(std::move(h));
    } else {
        return false;
    }
    return true;
}

void applyQuery(const std::string& query, AmqpUrl& url, bool& hasExchange)
{
    // Unknown keys are refused, not ignored: a setting the user believes in but that does
    // nothing is worse than an error.
    for (const auto& [name, value, hasValue] : UrlText::queryParameters(query)) {
        if (name == "exchange") {
            url.exchange = kUrl.percentDecode(value, "exchange");
            hasExchange = true;
        } else if (name == "routing_key") {
            url.routingKey = kUrl.percentDecode(value, "routing key");
        } else if (name == "max_message_size") {
            // RabbitMQ refuses a max_message_size over 512 MiB.
            url.maxMessageSize = kUrl.parseNumber(value, 1, 536870912, "max_message_size");
        } else if (name == "dead_exchange") {
            url.deadExchange = kUrl.percentDecode(value, "dead_exchange");
        } else if (name == "dead_routing_key") {
            url.deadRoutingKey = kUrl.percentDecode(value, "dead_routing_key");
        } else if (applyMessageKey(name, value, url)) {
            // a message property, applied
        } else if (hasValue && UrlText::isTlsParameter(name) && url.tls.enabled) {
            kUrl.applyTlsParameter(name, value, url.tls);
        } else if (hasValue && UrlText::isTlsParameter(name)) {
            kUrl.refuse("the TLS parameter " + name + "= needs an amqps:// URL");
        } else {
            kUrl.refuse("unknown parameter " + name +
                        " in the query (known: exchange, routing_key, max_message_size, "
                        "content_type, type, header.NAME, task_header.NAME, delayq_headers, "
                        "priority, expiration, dead_exchange, dead_routing_key; with amqps:// "
                        "also ca, ca_dir, cert, key, sni, insecure)");
        }
    }
    kUrl.requireCertAndKey(url.tls);
    if (url.deadRoutingKey && !url.deadExchange)
        kUrl.refuse("dead_routing_key= needs dead_exchange= (write dead_exchange= with nothing "
                    "after it for the default exchange)");
}

void applyUserInfo(const std::string& userInfo, AmqpUrl& url)
{
    const auto colon = userInfo.find(':');
    url.user = kUrl.percentDecode(userInfo.substr(0, colon), "user");
    url.password = colon == std::string::npos
                       ? ""
                       : kUrl.percentDecode(userInfo.substr(colon + 1), "password");
    if (url.user.empty())
        kUrl.refuse("the user is empty");
}

} // namespace

AmqpUrl parseAmqpUrl(const std::string& spec)
{
    if (!kUrl.matchesScheme(spec))
        kUrl.refuse("unknown scheme");
    if (spec.size() > 4096)
        kUrl.refuse("it is longer than 4096 characters");
    if (UrlText::hasControl(spec))
        kUrl.refuse("it contains control characters");
    AmqpUrl url;
    url.tls.enabled = kUrl.isTlsScheme(spec);
    url.port = url.tls.enabled ? 5671 : 5672;
    std::string rest = kUrl.afterScheme(spec);
    bool hasExchange = false;
    if (const auto q = rest.find('?'); q != std::string::npos) {
        applyQuery(rest.substr(q + 1), url, hasExchange);
        rest.resize(q);
    }
    if (const auto slash = rest.find('/'); slash != std::string::npos) {
        const std::string path = rest.substr(slash + 1);
        url.vhost = path.empty() ? "/" : kUrl.percentDecode(path, "vhost");
        rest.resize(slash);
    }
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        applyUserInfo(rest.substr(0, at), url);
        rest.erase(0, at + 1);
    }
    if (rest.find(',') != std::string::npos)
        kUrl.refuse("it names more than one host");
    const auto hosts = kUrl.parseHostList(rest, url.port, "host", 1, "the host is missing");
    url.host = hosts.front().host;
    url.port = hosts.front().port;
    if (!hasExchange)
        kUrl.refuse("exchange= is missing (write exchange= with nothing after it for the "
                    "default exchange)");
    return url;
}

std::string printableAmqpUrl(const std::string& spec)
{
    const auto start = spec.find("://");
    if (start == std::string::npos)
        return spec;
    const auto end = spec.find_first_of("/?", start + 3);
    const std::string authority =
        spec.substr(start + 3, end == std::string::npos ? std::string::npos : end - start - 3);
    const auto at = authority.rfind('@');
    if (at == std::string::npos)
        return spec;
    const auto colon = authority.find(':');
    const std::string user = authority.substr(0, std::min(colon, at));
    const std::string masked = colon < at ? user + ":***" : user;
    return spec.substr(0, start + 3) + masked + spec.substr(start + 3 + at);
}

} // namespace delayq::amqp
