#pragma once

#include <string>

namespace delayq {

// How a connection speaks TLS (a rediss:// URL). The URL query carries every field but the
// passphrase, so a profile or a command line can say it all in one string:
//   rediss://host:6380/0?ca=/etc/redis/ca.crt&cert=/etc/delayq/client.crt
//       &key=/etc/delayq/client.key&sni=redis.internal
//   ca=FILE       trust these CA certificates (PEM) instead of the system store
//   ca_dir=DIR    trust the CA certificates in DIR (hashed names, as c_rehash makes them)
//   cert=FILE     client certificate (PEM) for mutual TLS; needs key=
//   key=FILE      the client certificate's private key (PEM)
//   sni=NAME      the server name to send and to verify the certificate against (default:
//                 the host of the URL; an IP address is checked against the IP names)
//   insecure=1    skip every certificate check: encrypted, but anyone in between can read it
// The key's passphrase is never part of a URL (it would end up in logs and profiles): set
// keyPassphrase through the API (the CLI reads DELAYQ_TLS_KEY_PASSPHRASE).
struct TlsOptions
{
    bool enabled = false; // rediss://
    std::string caFile;
    std::string caDir; // both empty: the system's trusted CAs
    std::string certFile;
    std::string keyFile;
    std::string keyPassphrase; // secret: never shown, never written back into a URL
    std::string serverName;    // empty: the URL's host
    bool insecure = false;

    bool operator==(const TlsOptions&) const = default;
};

} // namespace delayq
