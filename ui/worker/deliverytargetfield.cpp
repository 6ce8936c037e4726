#include "worker/deliverytargetfield.h"

#include "widgets/fielderror.h"
#include <delayq/deliveries.h>
#include <delayq/error.h>

#include <QFutureWatcher>
#include <QLineEdit>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace delayq::ui {

DeliveryTargetField::DeliveryTargetField(QWidget* parent)
    : QWidget(parent), m_edit(new QLineEdit(this)), m_error(new FieldError(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_edit);
    layout->addWidget(m_error);
    m_edit->setPlaceholderText(tr("amqp://, https:// or pipe:CMD"));
    m_edit->setToolTip(
        tr("Hand each due task to a RabbitMQ exchange (amqp://user:pw@host/vhost?exchange=E&"
           "routing_key=K), a webhook (http:// or https://) or a consumer process reading JSON "
           "lines (pipe:CMD). A task is acked only once the target confirmed it."));
    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        validate();
        emit edited();
    });
    validate();
}

std::string DeliveryTargetField::spec() const
{
    return m_edit->text().trimmed().toStdString();
}

QString DeliveryTargetField::printable() const
{
    return QString::fromStdString(delayq::printableSpec(spec()));
}

void DeliveryTargetField::validate()
{
    const std::string typed = spec();
    if (typed.empty()) {
        // Nothing typed yet is no mistake to point at; Start stays off all the same.
        m_valid = false;
        m_error->setError({});
        return;
    }
    if (!delayq::isDeliverySpec(typed)) {
        m_valid = false;
        m_error->setError(tr("not a target: use amqp://, http(s):// or pipe:CMD"));
        return;
    }
    // deliveryFor only parses: an unknown URL key, no exchange, an empty command.
    m_valid = m_error->check([&] { delayq::deliveryFor(typed, {}); });
}

delayq::DeliveryFactory DeliveryTargetField::factory(const delayq::DeliveryOptions& options)
{
    delayq::DeliveryFactory made;
    m_valid = m_error->check([&] { made = delayq::deliveryFor(spec(), options); });
    return made;
}

void DeliveryTargetField::check(const delayq::DeliveryOptions& options)
{
    if (m_checking)
        return;
    m_checking = true;
    m_edit->setEnabled(false);
    const std::string target = spec();
    const QString shown = printable();
    // Captures copies only: when the dock closes first, the answer is dropped with the
    // watcher and the job still has all it uses.
    m_check = QtConcurrent::run([target, shown, options]() -> QString {
        try {
            delayq::checkDelivery(target, options);
            return {};
        } catch (const delayq::Error& e) {
            if (e.code() == delayq::ErrorCode::InvalidArgument)
                return QString::fromUtf8(e.what());
            return QCoreApplication::translate("delayq::ui::DeliveryTargetField",
                                               "%1 refused or did not answer: %2")
                .arg(shown, QString::fromUtf8(e.what()));
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
    });
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_checking = false;
        m_edit->setEnabled(true);
        const QString refusal = m_check.result();
        m_error->setError(refusal);
        emit checked(refusal);
    });
    watcher->setFuture(m_check);
}

} // namespace delayq::ui
