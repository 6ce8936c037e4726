#include "connectiondialog.h"

#include "connectionoptions.h"
#include "error.h"
#include "fielderror.h"
#include "keys.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QUrl>
#include <QVBoxLayout>

namespace delayq::ui {

namespace {

const QString kGroup = QStringLiteral("profiles");

} // namespace

ConnectionDialog::ConnectionDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Connect to Redis"));
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_profiles = new QComboBox(this);
    auto* deleteButton = new QPushButton(tr("Delete"), this);
    auto* profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profiles, 1);
    profileRow->addWidget(deleteButton);
    form->addRow(tr("Profile"), profileRow);

    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("a name to save this connection under"));
    m_nameError = new FieldError(this);
    form->addRow(tr("&Name"), FieldError::below(m_name, m_nameError, this));

    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(
        QStringLiteral("redis://[user@]host:6379/0 or unix:///path/redis.sock"));
    m_urlError = new FieldError(this);
    form->addRow(tr("&URL"), FieldError::below(m_url, m_urlError, this));

    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("kept for this session only, never saved"));
    form->addRow(tr("Pass&word"), m_password);

    m_prefix = new QLineEdit(QStringLiteral("dq"), this);
    m_prefixError = new FieldError(this);
    form->addRow(tr("&Key prefix"), FieldError::below(m_prefix, m_prefixError, this));

    m_readOnly = new QCheckBox(tr("Read-only: look, never change anything"), this);
    form->addRow(QString(), m_readOnly);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    auto* save = buttons->addButton(tr("Save profile"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectionDialog::reject);
    connect(save, &QPushButton::clicked, this, &ConnectionDialog::saveProfile);
    connect(deleteButton, &QPushButton::clicked, this, &ConnectionDialog::deleteProfile);
    connect(m_profiles, &QComboBox::textActivated, this, &ConnectionDialog::loadProfile);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    reloadProfiles({});
    if (m_profiles->count() > 0)
        loadProfile(m_profiles->currentText());
    else
        m_url->setText(QString::fromStdString(delayq::ConnectionOptions::defaultUrl()));
    resize(520, 300);
}

QString ConnectionDialog::profileName() const
{
    return m_name->text().trimmed();
}

QStringList ConnectionDialog::profileNames()
{
    QSettings settings;
    settings.beginGroup(kGroup);
    return settings.childGroups();
}

QString ConnectionDialog::stripPassword(const QString& url, QString* password)
{
    QUrl parsed(url);
    if (!parsed.isValid() || parsed.password().isEmpty())
        return url;
    if (password)
        *password = parsed.password(QUrl::FullyDecoded);
    parsed.setPassword(QString());
    return parsed.toString();
}

void ConnectionDialog::reloadProfiles(const QString& select)
{
    m_profiles->clear();
    m_profiles->addItems(profileNames());
    if (!select.isEmpty())
        m_profiles->setCurrentText(select);
}

void ConnectionDialog::loadProfile(const QString& name)
{
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.beginGroup(name);
    m_name->setText(name);
    m_url->setText(settings.value(QStringLiteral("url")).toString());
    m_prefix->setText(settings.value(QStringLiteral("prefix"), QStringLiteral("dq")).toString());
    m_readOnly->setChecked(settings.value(QStringLiteral("readOnly"), false).toBool());
    m_password->clear();
}

void ConnectionDialog::deleteProfile()
{
    const QString name = m_profiles->currentText();
    if (name.isEmpty())
        return;
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.remove(name);
    reloadProfiles({});
}

bool ConnectionDialog::saveProfile()
{
    const QString name = profileName();
    bool ok = validate();
    // Profile names become QSettings groups: keep them to plain words.
    static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9 ._-]{1,64}$"));
    if (!allowed.match(name).hasMatch()) {
        m_nameError->setError(tr("a profile name is 1 to 64 letters, digits, spaces or ._-"));
        ok = false;
    } else {
        m_nameError->setError({});
    }
    if (!ok)
        return false;
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.beginGroup(name);
    settings.setValue(QStringLiteral("url"), stripPassword(m_url->text().trimmed()));
    settings.setValue(QStringLiteral("prefix"), m_settings.prefix);
    settings.setValue(QStringLiteral("readOnly"), m_settings.readOnly);
    settings.endGroup();
    settings.endGroup();
    reloadProfiles(name);
    return true;
}

bool ConnectionDialog::validate()
{
    bool ok = true;
    ConnectionSettings s;
    s.url = m_url->text().trimmed();
    try {
        if (s.url.isEmpty())
            throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                tr("type a URL such as redis://127.0.0.1:6379").toStdString());
        delayq::ConnectionOptions::fromUrl(s.url.toStdString());
        m_urlError->setError({});
    } catch (const delayq::Error& e) {
        m_urlError->setError(QString::fromUtf8(e.what()));
        ok = false;
    }
    s.prefix = m_prefix->text().trimmed();
    try {
        delayq::Keys::validatePrefix(s.prefix.toStdString());
        m_prefixError->setError({});
    } catch (const delayq::Error& e) {
        m_prefixError->setError(QString::fromUtf8(e.what()));
        ok = false;
    }
    s.readOnly = m_readOnly->isChecked();
    s.password = m_password->text();
    if (ok)
        m_settings = s;
    return ok;
}

void ConnectionDialog::accept()
{
    if (validate())
        QDialog::accept();
}

} // namespace delayq::ui
