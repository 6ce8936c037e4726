#include <delayq/forecast.h>

#include <delayq/error.h>
#include <delayq/queuereader.h>

namespace delayq {

ForecastReader::ForecastReader(QueueReader& reader) : m_reader(reader) {}

Forecast ForecastReader::read(const Options& options)
{
    Forecast f;
    f.queue = m_reader.name();
    f.horizonMs = options.horizonMs;
    f.thresholdMs = options.thresholdMs;
    return f;
}

} // namespace delayq
