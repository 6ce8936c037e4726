#include "connection/tlsfields.h"

#include "widgets/fielderror.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace delayq::ui {

namespace {

std::string path(const QLineEdit* edit)
{
    return edit->text().trimmed().toStdString();
}

// Empty when the path is fine (or not given), else why not.
QString pathProblem(const QString& text, bool directory)
{
    const QString p = text.trimmed();
    if (p.isEmpty())
        return {};
    const QFileInfo info(p);
    if (!info.exists())
        return QCoreApplication::translate("delayq::ui::TlsFields", "there is no %1 at %2")
            .arg(directory ? QCoreApplication::translate("delayq::ui::TlsFields", "directory")
                           : QCoreApplication::translate("delayq::ui::TlsFields", "file"),
                 p);
    if (directory ? !info.isDir() : !info.isFile())
        return directory
                   ? QCoreApplication::translate("delayq::ui::TlsFields", "%1 is not a directory")
                         .arg(p)
                   : QCoreApplication::translate("delayq::ui::TlsFields", "%1 is not a file")
                         .arg(p);
    if (!info.isReadable())
        return QCoreApplication::translate("delayq::ui::TlsFields",
                                           "%1 cannot be read by this user")
            .arg(p);
    return {};
}

} // namespace

TlsFields::TlsFields(QWidget* parent) : QGroupBox(tr("TLS (rediss://)"), parent)
{
    setCheckable(true);
    setChecked(false);
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_caError = new FieldError(this);
    m_ca = addPathRow(form, tr("CA file"), tr("the system's trusted CAs when empty"), m_caError,
                      false);
    m_caDirError = new FieldError(this);
    m_caDir = addPathRow(form, tr("CA directory"), tr("optional: a c_rehash'ed directory"),
                         m_caDirError, true);
    m_certError = new FieldError(this);
    m_cert =
        addPathRow(form, tr("Client certificate"), tr("for mutual TLS only"), m_certError, false);
    m_keyError = new FieldError(this);
    m_key = addPathRow(form, tr("Client key"), tr("the certificate's private key (PEM)"),
                       m_keyError, false);
    m_passphrase = new QLineEdit(this);
    m_passphrase->setEchoMode(QLineEdit::Password);
    m_passphrase->setPlaceholderText(tr("if the key is encrypted; kept for this session only"));
    form->addRow(tr("Key passphrase"), m_passphrase);
    m_serverName = new QLineEdit(this);
    m_serverName->setPlaceholderText(tr("the name to verify; the URL's host when empty"));
    connect(m_serverName, &QLineEdit::textEdited, this, &TlsFields::edited);
    form->addRow(tr("Server name"), m_serverName);
    m_insecure =
        new QCheckBox(tr("Skip certificate checks (insecure: anyone in between can read and change "
                         "the traffic)"),
                      this);
    m_insecure->setStyleSheet(QStringLiteral("QCheckBox:checked { color: #c0392b; }"));
    connect(m_insecure, &QCheckBox::toggled, this, [this] {
        if (!m_showing)
            emit edited();
    });
    form->addRow(QString(), m_insecure);
    connect(this, &QGroupBox::toggled, this, [this] {
        if (!m_showing)
            emit edited();
    });
}

QLineEdit* TlsFields::addPathRow(QFormLayout* form, const QString& label, const QString& hint,
                                 FieldError* error, bool directory)
{
    auto* edit = new QLineEdit(this);
    edit->setPlaceholderText(hint);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* row = new QWidget(this);
    auto* rowLayout = new QHBoxLayout(row);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->addWidget(edit, 1);
    rowLayout->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this, edit, label, directory] {
        const QString chosen =
            directory
                ? QFileDialog::getExistingDirectory(this, label, edit->text())
                : QFileDialog::getOpenFileName(this, label, edit->text(),
                                               tr("PEM files (*.pem *.crt *.key);;All files (*)"));
        if (chosen.isEmpty())
            return;
        edit->setText(chosen);
        emit edited();
    });
    connect(edit, &QLineEdit::textEdited, this, &TlsFields::edited);
    connect(edit, &QLineEdit::textChanged, error, [error] { error->setError({}); });
    form->addRow(label, FieldError::below(row, error, this));
    return edit;
}

void TlsFields::showOptions(const delayq::TlsOptions& tls)
{
    m_showing = true;
    setChecked(tls.enabled);
    m_ca->setText(QString::fromStdString(tls.caFile));
    m_caDir->setText(QString::fromStdString(tls.caDir));
    m_cert->setText(QString::fromStdString(tls.certFile));
    m_key->setText(QString::fromStdString(tls.keyFile));
    m_serverName->setText(QString::fromStdString(tls.serverName));
    m_insecure->setChecked(tls.insecure);
    m_showing = false;
}

delayq::TlsOptions TlsFields::options() const
{
    delayq::TlsOptions tls;
    tls.enabled = isChecked();
    if (!tls.enabled)
        return tls;
    tls.caFile = path(m_ca);
    tls.caDir = path(m_caDir);
    tls.certFile = path(m_cert);
    tls.keyFile = path(m_key);
    tls.keyPassphrase = m_passphrase->text().toStdString();
    tls.serverName = m_serverName->text().trimmed().toStdString();
    tls.insecure = m_insecure->isChecked();
    return tls;
}

bool TlsFields::validate()
{
    if (!isChecked())
        return true;
    m_caError->setError(pathProblem(m_ca->text(), false));
    m_caDirError->setError(pathProblem(m_caDir->text(), true));
    m_certError->setError(pathProblem(m_cert->text(), false));
    m_keyError->setError(pathProblem(m_key->text(), false));
    const bool hasCert = !m_cert->text().trimmed().isEmpty();
    const bool hasKey = !m_key->text().trimmed().isEmpty();
    if (hasCert && !hasKey && !m_keyError->hasError())
        m_keyError->setError(tr("a client certificate needs its private key"));
    if (hasKey && !hasCert && !m_certError->hasError())
        m_certError->setError(tr("a private key needs its client certificate"));
    return !m_caError->hasError() && !m_caDirError->hasError() && !m_certError->hasError() &&
           !m_keyError->hasError();
}

} // namespace delayq::ui
