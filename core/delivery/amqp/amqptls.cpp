#include "amqptls.h"

#include <delayq/error.h>

#include <amqp_ssl_socket.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

namespace delayq::amqp {

namespace {

[[noreturn]] void refuse(const std::string& what)
{
    throw Error(ErrorCode::Tls, "RabbitMQ TLS: " + what);
}

void loadTrust(amqp_socket_t* socket, SSL_CTX* context, const TlsOptions& tls)
{
    if (!tls.caFile.empty() && amqp_ssl_socket_set_cacert(socket, tls.caFile.c_str()) != 0)
        refuse("cannot read the CA file " + tls.caFile);
    if (!tls.caDir.empty() &&
        SSL_CTX_load_verify_locations(context, nullptr, tls.caDir.c_str()) != 1)
        refuse("cannot read the CA directory " + tls.caDir);
    if (tls.caFile.empty() && tls.caDir.empty() && SSL_CTX_set_default_verify_paths(context) != 1)
        refuse("cannot load the system's trusted CAs");
}

// rabbitmq-c 0.11's own name check reads only DNS names, so a broker reached by its IP address
// never matches; OpenSSL's check (set on the context, before the handshake) reads IP
// addresses too, and checks sni= when it is given instead of the host.
void checkName(amqp_socket_t* socket, SSL_CTX* context, const AmqpUrl& url)
{
    amqp_ssl_socket_set_verify_hostname(socket, 0);
    const std::string& name = url.tls.serverName.empty() ? url.host : url.tls.serverName;
    X509_VERIFY_PARAM* param = SSL_CTX_get0_param(context);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    in6_addr address;
    const bool isIp = inet_pton(AF_INET, name.c_str(), &address) == 1 ||
                      inet_pton(AF_INET6, name.c_str(), &address) == 1;
    const int set = isIp ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
                         : X509_VERIFY_PARAM_set1_host(param, name.c_str(), 0);
    if (set != 1)
        refuse("cannot check the server name " + name);
}

} // namespace

amqp_socket_t* tlsSocket(amqp_connection_state_t state, const AmqpUrl& url)
{
    amqp_socket_t* socket = amqp_ssl_socket_new(state);
    if (!socket)
        refuse("cannot make a TLS socket");
    auto* context = static_cast<SSL_CTX*>(amqp_ssl_socket_get_context(socket));
    const TlsOptions& tls = url.tls;
    if (!tls.certFile.empty() &&
        amqp_ssl_socket_set_key(socket, tls.certFile.c_str(), tls.keyFile.c_str()) != 0)
        refuse("cannot read the client certificate " + tls.certFile + " or its key " + tls.keyFile);
    if (tls.insecure) {
        amqp_ssl_socket_set_verify_peer(socket, 0);
        amqp_ssl_socket_set_verify_hostname(socket, 0);
        return socket;
    }
    loadTrust(socket, context, tls);
    amqp_ssl_socket_set_verify_peer(socket, 1);
    checkName(socket, context, url);
    return socket;
}

} // namespace delayq::amqp
