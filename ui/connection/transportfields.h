#pragma once

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace delayq::ui {

class TlsFields;

// How a connection profile reaches Redis, beside its URL: one server or a Sentinel group, the
// sentinels' password, and TLS. The URL stays the one place that holds the choice; these
// fields show what it says and rewrite it when the user changes them. Secrets (the sentinels'
// password, the key's passphrase) never go into the URL: they live for the session.
class TransportFields : public QWidget
{
    Q_OBJECT

public:
    explicit TransportFields(QWidget* parent = nullptr);

    // The mode and the sentinels' password go in the profile's own form, aligned with its
    // rows (the URL above the mode, the password above the sentinels'); this widget holds
    // the TLS box.
    void addModeRow(QFormLayout* form);
    void addSentinelPasswordRow(QFormLayout* form);

    // Shows what url says; an invalid URL leaves the fields as they are.
    void showUrl(const QString& url);
    // url rewritten to what the fields say (without its passwords), or empty when url is not
    // one the core reads.
    QString applyTo(const QString& url) const;
    // Every field that names a file names a readable one; marks each that does not.
    bool validate();

    QString sentinelPassword() const;
    QString keyPassphrase() const;

    QComboBox* modeBox() const { return m_mode; }
    QLineEdit* sentinelPasswordEdit() const { return m_sentinelPassword; }
    TlsFields* tls() const { return m_tls; }

signals:
    // The user changed the mode or a TLS field: the URL should follow (applyTo).
    void edited();

private:
    void updateRows();

    QComboBox* m_mode;
    QLabel* m_sentinelLabel;
    QLineEdit* m_sentinelPassword;
    TlsFields* m_tls;
};

} // namespace delayq::ui
