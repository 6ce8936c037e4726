#pragma once

#include <QString>

// The sandbox's demo data, written with a connection of its own (never the app's I/O
// thread): "demo" with a few thousand tasks over the next hours, some dead and some leased
// so every tab has rows, "emails" with a few hundred, and a plain sorted set as home-grown
// delay queues write it.
class DemoFill
{
public:
    // Returns "" when done, else what went wrong. Blocking: run it off the GUI thread.
    static QString fill(const QString& url);

private:
    // Pushes count tasks spread from a few minutes ago to spreadMs ahead, in batches.
    // With lifecycle, a few are also taken by a pretend worker: some die, some stay leased.
    static void fillQueue(const std::string& url, const std::string& queue, long long count,
                          long long spreadMs, bool lifecycle);
};
