#pragma once

#include <QMetaType>
#include <QString>

// The settings of the admin connection and what it reports about the server.

namespace delayq::ui {

struct ConnectionSettings
{
    QString url; // may hold a password only for this session, never saved
    QString prefix = QStringLiteral("dq");
    bool readOnly = false;
    QString password;         // session only: overrides the URL's password when set
    QString sentinelPassword; // session only, never saved: the sentinels' own, if any
    QString tlsKeyPassphrase; // session only, never saved: an encrypted client key's

    // `url` with every other field at its default.
    static ConnectionSettings forUrl(const QString& url)
    {
        ConnectionSettings settings;
        settings.url = url;
        return settings;
    }
};

struct ServerInfo
{
    QString displayUrl; // password masked
    QString version;
    qint64 rttUs = 0;
    qint64 clockOffsetMs = 0; // server clock minus local clock
    bool readOnly = false;
    QString readOnlyReason;
    QString security;         // "TLSv1.3, TLS_AES_256_GCM_SHA384"; empty on a plain connection
    bool tlsInsecure = false; // TLS without certificate checks (insecure=1)
    QString serverAddress;    // host:port reached (through Sentinel: the master)
    QString sentinelGroup;    // "mymaster via s1:26379,s2:26379"; empty without Sentinel
    int masterChanges = 0;    // failovers this connection followed
    int clusterMasters = 0;   // on a Redis Cluster: the masters serving slots; 0 otherwise
};

} // namespace delayq::ui

Q_DECLARE_METATYPE(delayq::ui::ConnectionSettings)
Q_DECLARE_METATYPE(delayq::ui::ServerInfo)
