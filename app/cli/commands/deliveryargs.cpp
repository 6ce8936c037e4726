#include "commands/deliveryargs.h"

#include "output/textoutput.h"
#include <delayq/deliveries.h>
#include <delayq/error.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cli {

namespace {

bool isWebhook(const std::string& spec)
{
    return spec.rfind("http://", 0) == 0 || spec.rfind("https://", 0) == 0;
}

// The options that only a webhook target reads.
const std::vector<std::string>& webhookOptions()
{
    static const std::vector<std::string> names = {"http-method", "http-header", "http-timeout",
                                                   "http-ca", "webhook-secret-file"};
    return names;
}

std::string trimmedSecret(std::string secret)
{
    while (!secret.empty() && std::isspace(static_cast<unsigned char>(secret.back())))
        secret.pop_back();
    return secret;
}

// --webhook-secret-file, else DELAYQ_WEBHOOK_SECRET, else none: a secret on the command line
// would be in every `ps` listing and the shell's history.
std::string webhookSecret(const Args& a)
{
    if (a.has("webhook-secret-file")) {
        const std::string path = a.value("webhook-secret-file");
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw delayq::Error(delayq::ErrorCode::NotFound,
                                "cannot read the webhook secret file '" + printable(path) + "'");
        std::ostringstream text;
        text << in.rdbuf();
        std::string secret = trimmedSecret(text.str());
        if (secret.empty())
            throw UsageError("the webhook secret file '" + printable(path) + "' is empty");
        return secret;
    }
    const char* env = std::getenv("DELAYQ_WEBHOOK_SECRET");
    return env ? trimmedSecret(env) : std::string();
}

delayq::DeliveryOptions webhookOptionsFrom(const Args& a)
{
    delayq::DeliveryOptions o;
    o.httpMethod = a.value("http-method", o.httpMethod);
    std::transform(o.httpMethod.begin(), o.httpMethod.end(), o.httpMethod.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    o.httpHeaders = a.values("http-header");
    o.httpTimeoutMs = a.duration("http-timeout", o.httpTimeoutMs);
    if (o.httpTimeoutMs < 10 || o.httpTimeoutMs > 86'400'000)
        throw UsageError("--http-timeout must be from 10ms to 24h");
    o.httpCaFile = a.value("http-ca");
    if (a.has("http-ca") && o.httpCaFile.empty())
        throw UsageError("--http-ca needs a file of CA certificates (PEM)");
    o.signingSecret = webhookSecret(a);
    return o;
}

} // namespace

std::vector<OptionSpec> deliveryOptionSpecs()
{
    return {{"answer-timeout", true}, {"http-method", true}, {"http-header", true, true},
            {"http-timeout", true},   {"http-ca", true},     {"webhook-secret-file", true},
            {"webhook-secret", true}};
}

delayq::DeliveryOptions deliveryOptionsFrom(const Args& a, const std::string& spec)
{
    if (a.has("webhook-secret"))
        throw UsageError("a webhook secret never goes on the command line (every user sees it "
                         "in ps): use --webhook-secret-file FILE or DELAYQ_WEBHOOK_SECRET");
    if (!isWebhook(spec))
        for (const std::string& name : webhookOptions())
            if (a.has(name))
                throw UsageError("--" + name +
                                 " applies to a webhook target (--handler http://… or "
                                 "https://…), not to --handler " +
                                 printable(delayq::printableSpec(spec).substr(0, 64)));
    if (!delayq::isDeliverySpec(spec) && a.has("answer-timeout"))
        throw UsageError("--answer-timeout applies to a delivery target (--handler amqp://…, "
                         "http(s)://… or pipe:CMD)");
    delayq::DeliveryOptions o = isWebhook(spec) ? webhookOptionsFrom(a) : delayq::DeliveryOptions{};
    o.answerTimeoutMs = a.duration("answer-timeout", o.answerTimeoutMs);
    return o;
}

} // namespace cli
