#pragma once

#include "transport/sockettransport.h"

#include <delayq/error.h>

#include <memory>
#include <string>

struct ssl_st;
struct ssl_ctx_st;

namespace delayq {

struct ConnectionOptions;

// TLS (OpenSSL) over a SocketTransport. The certificate is verified against the CA file,
// directory or system store, and against the server name (SNI, default: the host; an IP
// address is checked against the certificate's IP names), unless tls.insecure. Every failure
// says what was wrong (the X509 verify result, the server's alert, a plain-text server)
// instead of OpenSSL's error stack.
class TlsTransport : public Transport
{
public:
    // Reads the CA, certificate and key files, connects and runs the handshake, all before
    // the deadline. Throws Error(Tls) for a file or certificate problem.
    static std::unique_ptr<TlsTransport> open(const ConnectionOptions& options,
                                              Clock::time_point deadline);
    ~TlsTransport() override;

    void send(std::string_view bytes, Clock::time_point deadline) override;
    size_t receive(char* buffer, size_t size, Clock::time_point deadline) override;
    bool hasPending() const override;
    std::string securityDescription() const override;
    int fd() const override { return m_socket->fd(); }

    // The first certificate problem the verification met: the failing certificate's dates
    // and names, taken while it is at hand (afterwards only the leaf is).
    struct VerifyProblem
    {
        long error = 0; // X509_V_OK: none
        std::string notBefore;
        std::string notAfter;
        std::string issuer;
        std::string names; // the certificate's DNS and IP names
        // The server asked for a client certificate and there was none to give. In TLS 1.3
        // its refusal comes after the handshake, as an alert or a reset on the first command.
        bool certificateRequested = false;
    };

private:
    TlsTransport(std::unique_ptr<SocketTransport> socket, ssl_ctx_st* context);
    void handshake(const ConnectionOptions& options, Clock::time_point deadline);
    void setServerName(const ConnectionOptions& options);
    // After SSL_ERROR_WANT_READ/WRITE: waits for the socket; false when the deadline passed.
    bool waitFor(int sslError, Clock::time_point deadline);
    // The Error for a failed handshake, read, or write (sslError from SSL_get_error).
    Error failure(int sslError, const char* during) const;
    std::string verifyFailure() const;

    std::unique_ptr<SocketTransport> m_socket;
    ssl_ctx_st* m_context = nullptr;
    ssl_st* m_ssl = nullptr;
    std::string m_serverName;
    VerifyProblem m_problem;
    size_t m_received = 0; // application bytes: none yet means a refusal of the handshake
};

} // namespace delayq
