#include "transport/tlstransport.h"

#include "transport/sigpipeblock.h"
#include <delayq/connectionoptions.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <poll.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace delayq {

namespace {

[[noreturn]] void refuseFile(const std::string& what, const std::string& path,
                             const std::string& why)
{
    throw Error(ErrorCode::Tls, "cannot use the " + what + " " + path + ": " + why);
}

// The reason of OpenSSL's most recent error, or `fallback` when it recorded none.
std::string openSslReason(const char* fallback)
{
    const unsigned long code = ERR_peek_last_error();
    const char* reason = code ? ERR_reason_error_string(code) : nullptr;
    return reason ? reason : fallback;
}

// A missing or unreadable file named as such, before OpenSSL's less helpful "no such file"
// from deep in its PEM reader.
void checkReadable(const std::string& what, const std::string& path)
{
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        refuseFile(what, path, std::strerror(errno));
    std::fclose(f);
}

bool isIpAddress(const std::string& name)
{
    unsigned char buffer[sizeof(in6_addr)];
    return inet_pton(AF_INET, name.c_str(), buffer) == 1 ||
           inet_pton(AF_INET6, name.c_str(), buffer) == 1;
}

std::string timeText(const ASN1_TIME* time)
{
    tm parts{};
    if (!time || ASN1_TIME_to_tm(time, &parts) != 1)
        return "an unreadable date";
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &parts);
    return text;
}

std::string nameText(const X509_NAME* name)
{
    char text[256] = {};
    if (name)
        X509_NAME_oneline(name, text, sizeof text);
    return text;
}

// The names a certificate is for: its DNS and IP subject alternative names, else its CN.
std::string certificateNames(const X509* cert)
{
    std::string names;
    auto add = [&names](const std::string& n) { names += (names.empty() ? "" : ", ") + n; };
    auto* sans =
        static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; sans && i < sk_GENERAL_NAME_num(sans); ++i) {
        const GENERAL_NAME* n = sk_GENERAL_NAME_value(sans, i);
        if (n->type == GEN_DNS) {
            const auto* s = n->d.dNSName;
            add(std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                            static_cast<size_t>(ASN1_STRING_length(s))));
        } else if (n->type == GEN_IPADD) {
            const auto* s = n->d.iPAddress;
            char text[INET6_ADDRSTRLEN] = {};
            const int family = ASN1_STRING_length(s) == 4 ? AF_INET : AF_INET6;
            if (inet_ntop(family, ASN1_STRING_get0_data(s), text, sizeof text))
                add(text);
        }
    }
    GENERAL_NAMES_free(sans);
    if (names.empty()) {
        char cn[256] = {};
        X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof cn);
        names = cn[0] ? cn : "no name";
    }
    return names;
}

// Keeps the first problem with the failing certificate's details; the handshake fails on it
// all the same (ok is returned unchanged).
int recordProblem(int ok, X509_STORE_CTX* store)
{
    if (ok)
        return ok;
    auto* ssl =
        static_cast<SSL*>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    auto* problem =
        ssl ? static_cast<TlsTransport::VerifyProblem*>(SSL_get_app_data(ssl)) : nullptr;
    if (problem && problem->error == X509_V_OK) {
        problem->error = X509_STORE_CTX_get_error(store);
        if (const X509* cert = X509_STORE_CTX_get_current_cert(store)) {
            problem->notBefore = timeText(X509_get0_notBefore(cert));
            problem->notAfter = timeText(X509_get0_notAfter(cert));
            problem->issuer = nameText(X509_get_issuer_name(cert));
        }
        // The leaf's names, for a name mismatch (whichever certificate failed).
        if (const X509* leaf = X509_STORE_CTX_get0_cert(store))
            problem->names = certificateNames(leaf);
    }
    return ok;
}

// Called only when the server asks for a client certificate and none is set: remembers it, so
// that the server's refusal can be named, and goes on without one (the server decides).
int noClientCertificate(SSL* ssl, X509**, EVP_PKEY**)
{
    if (auto* problem = static_cast<TlsTransport::VerifyProblem*>(SSL_get_app_data(ssl)))
        problem->certificateRequested = true;
    return 0;
}

// A passphrase callback that never prompts on the terminal (OpenSSL's default would, and a
// worker would hang there): the key's passphrase from the options, or none.
int passphraseFromOptions(char* buffer, int size, int, void* userData)
{
    const auto* tls = static_cast<const TlsOptions*>(userData);
    if (!tls)
        return 0;
    const int length = static_cast<int>(tls->keyPassphrase.size());
    if (length == 0 || length > size)
        return 0;
    std::memcpy(buffer, tls->keyPassphrase.data(), static_cast<size_t>(length));
    return length;
}

void loadTrust(SSL_CTX* context, const TlsOptions& tls)
{
    if (!tls.caFile.empty())
        checkReadable("CA file", tls.caFile);
    if (tls.caFile.empty() && tls.caDir.empty()) {
        if (SSL_CTX_set_default_verify_paths(context) != 1)
            throw Error(ErrorCode::Tls,
                        "cannot load the system's trusted CAs: " + openSslReason("unknown error"));
        return;
    }
    if (SSL_CTX_load_verify_locations(context, tls.caFile.empty() ? nullptr : tls.caFile.c_str(),
                                      tls.caDir.empty() ? nullptr : tls.caDir.c_str()) != 1) {
        if (!tls.caFile.empty())
            refuseFile("CA file", tls.caFile, openSslReason("no PEM certificate in it"));
        refuseFile("CA directory", tls.caDir, openSslReason("cannot read it"));
    }
}

void loadClientCertificate(SSL_CTX* context, const TlsOptions& tls)
{
    if (tls.certFile.empty() && tls.keyFile.empty())
        return;
    if (tls.certFile.empty() || tls.keyFile.empty())
        throw Error(ErrorCode::Tls, "a client certificate needs both the certificate and its key");
    checkReadable("client certificate", tls.certFile);
    checkReadable("client key", tls.keyFile);
    if (SSL_CTX_use_certificate_chain_file(context, tls.certFile.c_str()) != 1)
        refuseFile("client certificate", tls.certFile, openSslReason("not a PEM certificate"));
    // The callback data points into the options, which outlive this call; nothing keeps it.
    SSL_CTX_set_default_passwd_cb(context, passphraseFromOptions);
    SSL_CTX_set_default_passwd_cb_userdata(context, const_cast<TlsOptions*>(&tls));
    const int loaded = SSL_CTX_use_PrivateKey_file(context, tls.keyFile.c_str(), SSL_FILETYPE_PEM);
    SSL_CTX_set_default_passwd_cb_userdata(context, nullptr);
    if (loaded != 1)
        refuseFile("client key", tls.keyFile,
                   tls.keyPassphrase.empty()
                       ? openSslReason("not a PEM key") + " (an encrypted key needs its passphrase)"
                       : openSslReason("not a PEM key") + " (or the passphrase is wrong)");
    if (SSL_CTX_check_private_key(context) != 1)
        refuseFile("client key", tls.keyFile, "it does not belong to " + tls.certFile);
}

SSL_CTX* makeContext(const TlsOptions& tls)
{
    SSL_CTX* context = SSL_CTX_new(TLS_client_method());
    if (!context)
        throw Error(ErrorCode::Tls, "cannot set up TLS: " + openSslReason("out of memory"));
    try {
        SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
        // Writes resume with the same buffer after WANT_WRITE, and may complete in parts.
        SSL_CTX_set_mode(context,
                         SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
        SSL_CTX_set_verify(context, tls.insecure ? SSL_VERIFY_NONE : SSL_VERIFY_PEER,
                           tls.insecure ? nullptr : recordProblem);
        if (!tls.insecure)
            loadTrust(context, tls);
        loadClientCertificate(context, tls);
        SSL_CTX_set_client_cert_cb(context, noClientCertificate);
    } catch (...) {
        SSL_CTX_free(context);
        throw;
    }
    return context;
}

} // namespace

std::unique_ptr<TlsTransport> TlsTransport::open(const ConnectionOptions& options,
                                                 Clock::time_point deadline)
{
    ERR_clear_error();
    SSL_CTX* context = makeContext(options.tls); // file problems before any network wait
    std::unique_ptr<SocketTransport> socket;
    try {
        socket = SocketTransport::connectTcp(options.host, options.port, deadline);
    } catch (...) {
        SSL_CTX_free(context);
        throw;
    }
    std::unique_ptr<TlsTransport> transport(new TlsTransport(std::move(socket), context));
    transport->handshake(options, deadline);
    return transport;
}

TlsTransport::TlsTransport(std::unique_ptr<SocketTransport> socket, ssl_ctx_st* context)
    : m_socket(std::move(socket)), m_context(context)
{}

TlsTransport::~TlsTransport()
{
    // No close_notify: the socket closes right after, and a dead peer must not stall it.
    if (m_ssl)
        SSL_free(m_ssl);
    SSL_CTX_free(m_context);
}

void TlsTransport::setServerName(const ConnectionOptions& options)
{
    m_serverName = options.tls.serverName.empty() ? options.host : options.tls.serverName;
    const bool ip = isIpAddress(m_serverName);
    // SNI carries host names only (RFC 6066); an IP address is checked, not sent.
    if (!ip)
        SSL_set_tlsext_host_name(m_ssl, m_serverName.c_str());
    if (options.tls.insecure)
        return;
    X509_VERIFY_PARAM* param = SSL_get0_param(m_ssl);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    const int set = ip ? X509_VERIFY_PARAM_set1_ip_asc(param, m_serverName.c_str())
                       : X509_VERIFY_PARAM_set1_host(param, m_serverName.c_str(), 0);
    if (set != 1)
        throw Error(ErrorCode::Tls, "cannot verify against the server name '" + m_serverName + "'");
}

void TlsTransport::handshake(const ConnectionOptions& options, Clock::time_point deadline)
{
    m_ssl = SSL_new(m_context);
    if (!m_ssl || SSL_set_fd(m_ssl, m_socket->fd()) != 1)
        throw Error(ErrorCode::Tls, "cannot set up TLS: " + openSslReason("out of memory"));
    SSL_set_app_data(m_ssl, &m_problem);
    setServerName(options);
    const SigpipeBlock noSigpipe; // OpenSSL writes with write(2)
    for (;;) {
        ERR_clear_error();
        const int rc = SSL_connect(m_ssl);
        if (rc == 1)
            return;
        const int error = SSL_get_error(m_ssl, rc);
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE)
            throw failure(error, "the TLS handshake");
        if (!waitFor(error, deadline)) {
            // A plain Redis reads the ClientHello as the start of an inline command and
            // waits for its end: it never answers.
            if (BIO_number_read(SSL_get_rbio(m_ssl)) == 0)
                throw Error(ErrorCode::Tls, "the server did not answer TLS within " +
                                                std::to_string(options.connectTimeout.count()) +
                                                " ms — is this a plain redis:// port?");
            throw Error(ErrorCode::Timeout, "the TLS handshake timed out");
        }
    }
}

bool TlsTransport::waitFor(int sslError, Clock::time_point deadline)
{
    return SocketTransport::waitFor(m_socket->fd(),
                                    sslError == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN, deadline);
}

std::string TlsTransport::verifyFailure() const
{
    const long result = m_problem.error ? m_problem.error : SSL_get_verify_result(m_ssl);
    const X509* leaf = SSL_get0_peer_certificate(m_ssl);
    switch (result) {
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        return "the server's certificate is for " +
               (!m_problem.names.empty() ? m_problem.names
                : leaf                   ? certificateNames(leaf)
                                         : std::string("another name")) +
               ", not " + m_serverName +
               " (connect by one of those names, or set the name to "
               "verify: ?sni=NAME, --tls-server-name)";
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_UNTRUSTED:
        return "the server's certificate is signed by an unknown CA (" + m_problem.issuer +
               ") — pass ?ca=FILE (--tls-ca FILE) with the CA that signed it";
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return "the server's certificate expired on " + m_problem.notAfter;
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return "the server's certificate is not valid before " + m_problem.notBefore +
               " (is this machine's clock right?)";
    default:
        return std::string("the server's certificate was refused: ") +
               X509_verify_cert_error_string(result);
    }
}

Error TlsTransport::failure(int sslError, const char* during) const
{
    const unsigned long code = ERR_peek_last_error();
    const int reason = ERR_GET_REASON(code);
    const bool verifyFailed =
        reason == SSL_R_CERTIFICATE_VERIFY_FAILED || (m_problem.error != X509_V_OK);
    if (verifyFailed)
        return Error(ErrorCode::Tls, verifyFailure());
    if (reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_UNKNOWN_PROTOCOL ||
        reason == SSL_R_PACKET_LENGTH_TOO_LONG || reason == SSL_R_HTTP_REQUEST)
        return Error(ErrorCode::Tls, "the server did not answer TLS — is this a plain "
                                     "redis:// port?");
    const bool refusedEarly = m_problem.certificateRequested && m_received == 0 &&
                              (sslError == SSL_ERROR_SYSCALL || sslError == SSL_ERROR_ZERO_RETURN ||
                               sslError == SSL_ERROR_SSL);
    if (refusedEarly || reason == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED ||
        reason == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE)
        return Error(ErrorCode::Tls, "the server requires a client certificate: pass ?cert=FILE"
                                     "&key=FILE (--tls-cert, --tls-key)");
    if (reason == SSL_R_TLSV1_ALERT_UNKNOWN_CA || reason == SSL_R_SSLV3_ALERT_BAD_CERTIFICATE ||
        reason == SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN)
        return Error(ErrorCode::Tls, std::string("the server refused our client certificate (") +
                                         openSslReason("bad certificate") + ")");
    if (sslError == SSL_ERROR_SYSCALL && code == 0 && errno != 0)
        return Error(ErrorCode::Connection, std::string(during) + ": " + std::strerror(errno));
    if (sslError == SSL_ERROR_ZERO_RETURN || sslError == SSL_ERROR_SYSCALL ||
        reason == SSL_R_UNEXPECTED_EOF_WHILE_READING)
        return Error(ErrorCode::Connection,
                     std::string("the server closed the connection during ") + during);
    return Error(ErrorCode::Tls,
                 std::string(during) + " failed: " + openSslReason("unknown error"));
}

void TlsTransport::send(std::string_view bytes, Clock::time_point deadline)
{
    const SigpipeBlock noSigpipe;
    size_t sent = 0;
    while (sent < bytes.size()) {
        ERR_clear_error();
        const size_t chunk = std::min<size_t>(bytes.size() - sent, 1 << 30);
        const int n = SSL_write(m_ssl, bytes.data() + sent, static_cast<int>(chunk));
        if (n > 0) {
            sent += static_cast<size_t>(n);
            continue;
        }
        const int error = SSL_get_error(m_ssl, n);
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE)
            throw failure(error, "a TLS write");
        if (!waitFor(error, deadline))
            throw Error(ErrorCode::Timeout, "sending timed out");
    }
}

size_t TlsTransport::receive(char* buffer, size_t size, Clock::time_point deadline)
{
    const SigpipeBlock noSigpipe; // a read may answer a key update with a write
    // Waiting first unless OpenSSL holds bytes already (see SocketTransport::receive).
    if (!SSL_has_pending(m_ssl) && !waitFor(SSL_ERROR_WANT_READ, deadline))
        throw Error(ErrorCode::Timeout, "no reply in time");
    for (;;) {
        ERR_clear_error();
        const int n = SSL_read(m_ssl, buffer, static_cast<int>(std::min<size_t>(size, 1 << 30)));
        if (n > 0) {
            m_received += static_cast<size_t>(n);
            return static_cast<size_t>(n);
        }
        const int error = SSL_get_error(m_ssl, n);
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE)
            throw failure(error, "a TLS read");
        if (!waitFor(error, deadline))
            throw Error(ErrorCode::Timeout, "no reply in time");
    }
}

bool TlsTransport::hasPending() const
{
    return SSL_pending(m_ssl) > 0;
}

std::string TlsTransport::securityDescription() const
{
    return std::string(SSL_get_version(m_ssl)) + ", " + SSL_get_cipher_name(m_ssl);
}

} // namespace delayq
