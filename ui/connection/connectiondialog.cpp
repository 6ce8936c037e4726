#include "connection/connectiondialog.h"

#include "connection/connectionprofiles.h"
#include "connection/sessionstore.h"
#include "connection/transportfields.h"
#include "widgets/dialogbuttons.h"
#include "widgets/fielderror.h"
#include <delayq/connectionoptions.h>
#include <delayq/error.h>
#include <delayq/keys.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace delayq::ui {

ConnectionDialog::ConnectionDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Connect to Redis"));
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // Made in the order of the form: the tab order follows it.
    addProfileRows(form);
    addPasswordRows(form);

    m_prefix = new QLineEdit(QStringLiteral("dq"), this);
    m_prefixError = FieldError::addRow(form, tr("&Key prefix"), m_prefix, this);

    m_readOnly = new QCheckBox(tr("Read-only: look, never change anything"), this);
    form->addRow(QString(), m_readOnly);

    auto* buttons = makeButtons();
    connect(m_url, &QLineEdit::textChanged, this, [this] {
        if (!m_rewriting)
            m_transport->showUrl(m_url->text());
    });
    connect(m_transport, &TransportFields::edited, this, &ConnectionDialog::rewriteUrl);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_transport);
    layout->addStretch(1);
    layout->addWidget(buttons);
    reloadProfiles({});
    if (m_profiles->count() > 0)
        loadProfile(m_profiles->currentText());
    else
        m_url->setText(QString::fromStdString(delayq::ConnectionOptions::defaultUrl()));
    resize(600, 560);
}

void ConnectionDialog::addProfileRows(QFormLayout* form)
{
    m_profiles = new QComboBox(this);
    auto* deleteButton = new QPushButton(tr("Delete"), this);
    auto* profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profiles, 1);
    profileRow->addWidget(deleteButton);
    form->addRow(tr("Profile"), profileRow);
    connect(deleteButton, &QPushButton::clicked, this, &ConnectionDialog::deleteProfile);
    connect(m_profiles, &QComboBox::textActivated, this, &ConnectionDialog::loadProfile);

    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("a name to save this connection under"));
    m_nameError = FieldError::addRow(form, tr("&Name"), m_name, this);

    m_transport = new TransportFields(this);
    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(tr("redis://[user:password@]host:6379/0 or unix:///path/redis.sock"));
    m_urlError = FieldError::addRow(form, tr("&URL"), m_url, this);
    m_transport->addModeRow(form);
}

void ConnectionDialog::addPasswordRows(QFormLayout* form)
{
    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    connect(m_url, &QLineEdit::textChanged, this, &ConnectionDialog::urlChanged);
    connect(m_password, &QLineEdit::textEdited, this, [this] { m_filledFrom.clear(); });
    m_password->setPlaceholderText(PasswordStore::isBuiltIn()
                                       ? tr("kept for this session unless remembered below")
                                       : tr("kept for this session only, never saved"));
    m_keychainNote = new QLabel(this);
    m_keychainNote->setTextFormat(Qt::PlainText);
    m_keychainNote->setWordWrap(true);
    m_keychainNote->hide();
    auto* passwordColumn = new QVBoxLayout;
    passwordColumn->setContentsMargins(0, 0, 0, 0);
    passwordColumn->addWidget(m_password);
    passwordColumn->addWidget(m_keychainNote);
    form->addRow(tr("Pass&word"), passwordColumn);
    // A row holding a layout gets a label without a buddy, which shows the '&' as it is.
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(passwordColumn)))
        label->setBuddy(m_password);

    m_remember = new QCheckBox(tr("Remember the password in the system keychain"), this);
    if (!PasswordStore::isBuiltIn()) {
        m_remember->setEnabled(false);
        m_remember->setToolTip(
            tr("This build has no keychain support (QtKeychain): the password is asked for "
               "each session."));
    }
    form->addRow(QString(), m_remember);
    m_transport->addSentinelPasswordRow(form);
    m_store = new PasswordStore(this);
    connect(m_store, &PasswordStore::passwordRead, this, &ConnectionDialog::readAnswered);
    connect(m_store, &PasswordStore::passwordWritten, this,
            [this](const QString&, PasswordStore::Result result) { writeAnswered(result); });
    connect(m_store, &PasswordStore::passwordRemoved, this,
            [this](const QString&, PasswordStore::Result result) { removeAnswered(result); });
}

QDialogButtonBox* ConnectionDialog::makeButtons()
{
    auto* buttons = DialogButtons::okCancel(this, tr("Connect"));
    auto* save = buttons->addButton(tr("Save profile"), QDialogButtonBox::ActionRole);
    connect(save, &QPushButton::clicked, this, &ConnectionDialog::saveProfile);
    return buttons;
}

QString ConnectionDialog::profileName() const
{
    return m_name->text().trimmed();
}

void ConnectionDialog::startFrom(const ConnectionSettings& current)
{
    const QString server = stripPassword(current.url.trimmed());
    if (server.isEmpty())
        return;
    if (const QString name = ConnectionProfiles::nameFor(server); !name.isEmpty()) {
        m_profiles->setCurrentText(name);
        loadProfile(name);
        return;
    }
    // No profile for it: the fields as the window is connected, ready to save as one.
    m_profiles->setCurrentIndex(-1);
    m_name->clear();
    m_url->setText(server);
    m_password->clear();
    fillKeptPassword();
    m_prefix->setText(current.prefix.isEmpty() ? QStringLiteral("dq") : current.prefix);
    m_readOnly->setChecked(current.readOnly);
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
    const ConnectionProfiles::Profile profile = ConnectionProfiles::read(name);
    m_filledFrom.clear();
    m_name->setText(name);
    m_url->setText(profile.url);
    m_prefix->setText(profile.prefix);
    m_readOnly->setChecked(profile.readOnly);
    m_password->clear();
    m_keychainNote->hide();
    const bool remember = PasswordStore::isBuiltIn() && profile.keychain;
    m_remember->setChecked(remember);
    m_pendingRead.clear();
    // The one this session connected with comes first: no keychain needed for it.
    if (fillKeptPassword())
        return;
    if (remember) {
        m_pendingRead = m_url->text();
        m_store->read(m_pendingRead);
    }
}

bool ConnectionDialog::fillKeptPassword()
{
    const QString kept = SessionStore::keptPassword(m_url->text());
    if (kept.isEmpty())
        return false;
    m_password->setText(kept); // shown masked (the field's echo mode)
    m_filledFrom = stripPassword(m_url->text().trimmed());
    m_filledFromSession = true;
    return true;
}

void ConnectionDialog::readAnswered(const QString& key, PasswordStore::Result result,
                                    const QString& password)
{
    if (key != m_pendingRead)
        return; // another profile was loaded meanwhile
    m_pendingRead.clear();
    if (result == PasswordStore::Result::Unavailable) {
        showKeychainNote({});
        return;
    }
    // What the user typed or changed while the keychain was answering wins.
    const QString server = stripPassword(m_url->text().trimmed());
    if (server.isEmpty() || server != stripPassword(key) || !m_password->text().isEmpty())
        return;
    if (result == PasswordStore::Result::Done) {
        m_password->setText(password);
        m_filledFrom = server;
        m_filledFromSession = false;
        showKeychainNote(tr("Password from the system keychain."));
    } else {
        showKeychainNote(tr("The system keychain holds no password for this server."));
    }
}

void ConnectionDialog::urlChanged()
{
    if (m_filledFrom.isEmpty() || stripPassword(m_url->text().trimmed()) == m_filledFrom)
        return;
    // Kept, it would be sent to the new server (and saved under its name if remembered).
    m_filledFrom.clear();
    m_password->clear();
    showKeychainNote(m_filledFromSession
                         ? tr("The password kept for this session was for another server: "
                              "cleared.")
                         : tr("The password from the system keychain was for another server: "
                              "cleared."));
}

void ConnectionDialog::rewriteUrl()
{
    const QString url = m_url->text().trimmed();
    const QString next = m_transport->applyTo(url);
    if (next.isEmpty())
        return; // an invalid URL keeps its error until the user fixes it
    QString password;
    stripPassword(url, &password);
    if (!password.isEmpty() && m_password->text().isEmpty())
        m_password->setText(password); // the rewritten URL holds none
    m_rewriting = true;
    m_url->setText(next);
    m_rewriting = false;
}

void ConnectionDialog::writeAnswered(PasswordStore::Result result)
{
    if (result == PasswordStore::Result::Done)
        showKeychainNote(tr("Password saved in the system keychain."));
    else
        showKeychainNote({});
}

void ConnectionDialog::removeAnswered(PasswordStore::Result result)
{
    if (result == PasswordStore::Result::Unavailable)
        showKeychainNote({});
}

void ConnectionDialog::showKeychainNote(const QString& note)
{
    // Empty: no keychain answered. The keychain's own error text is not shown: it says
    // nothing the user can act on beyond this.
    m_keychainNote->setText(
        note.isEmpty() ? tr("No system keychain: the password is kept for this session only.")
                       : note);
    m_keychainNote->show();
}

void ConnectionDialog::forgetUnlessShared(const QString& key)
{
    if (!remembersPassword(key))
        m_store->remove(key);
}

void ConnectionDialog::deleteProfile()
{
    const QString name = m_profiles->currentText();
    if (name.isEmpty())
        return;
    const ConnectionProfiles::Profile removed = ConnectionProfiles::remove(name);
    if (removed.keychain)
        forgetUnlessShared(removed.url);
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
    QString urlPassword;
    const QString key = stripPassword(m_url->text().trimmed(), &urlPassword);
    const QString password = m_password->text().isEmpty() ? urlPassword : m_password->text();
    const bool remember = m_remember->isChecked();
    const ConnectionProfiles::Profile old = ConnectionProfiles::read(name);
    ConnectionProfiles::write(name, {key, m_settings.prefix, m_settings.readOnly, remember});
    // An empty field keeps what the keychain holds (its answer may still be on the way).
    if (remember && !password.isEmpty())
        m_store->write(key, password);
    if (old.keychain && (!remember || old.url != key))
        forgetUnlessShared(old.url);
    reloadProfiles(name);
    return true;
}

bool ConnectionDialog::validate()
{
    bool ok = true;
    ConnectionSettings s = ConnectionSettings::forUrl(m_url->text().trimmed());
    ok = m_urlError->check([&] {
        if (s.url.isEmpty())
            throw delayq::Error(delayq::ErrorCode::InvalidArgument,
                                tr("type a URL such as redis://127.0.0.1:6379").toStdString());
        delayq::ConnectionOptions::fromUrl(s.url.toStdString());
    });
    s.prefix = m_prefix->text().trimmed();
    ok = m_prefixError->check([&] { delayq::Keys::validatePrefix(s.prefix.toStdString()); }) && ok;
    ok = m_transport->validate() && ok;
    s.readOnly = m_readOnly->isChecked();
    s.password = m_password->text();
    s.sentinelPassword = m_transport->sentinelPassword();
    s.tlsKeyPassphrase = m_transport->keyPassphrase();
    if (ok)
        m_settings = s;
    return ok;
}

void ConnectionDialog::accept()
{
    if (!validate())
        return;
    // As the password field says: kept for this session (for the watches and a reload).
    SessionStore::keepPassword(m_settings);
    QDialog::accept();
}

} // namespace delayq::ui
