#include "amqpurl.h"

#include "transport/urltext.h"
#include <delayq/error.h>

namespace delayq::amqp {

namespace {

const UrlText kUrl("RabbitMQ URL",
                   "amqp://[user[:password]@]host[:port][/vhost]?exchange=E[&routing_key=K]"
                   "[&max_message_size=BYTES], or "
                   "amqps://… with the TLS keys ca, ca_dir, cert, key, sni, insecure",
                   "amqp://", "amqps://");

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
        } else if (hasValue && UrlText::isTlsParameter(name) && url.tls.enabled) {
            kUrl.applyTlsParameter(name, value, url.tls);
        } else if (hasValue && UrlText::isTlsParameter(name)) {
            kUrl.refuse("the TLS parameter " + name + "= needs an amqps:// URL");
        } else {
            kUrl.refuse("unknown parameter " + name +
                        " in the query (known: exchange, "
                        "routing_key, max_message_size; with amqps:// also ca, ca_dir, cert, key, "
                        "sni, insecure)");
        }
    }
    kUrl.requireCertAndKey(url.tls);
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
