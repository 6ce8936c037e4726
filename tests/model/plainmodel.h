#pragma once

#include "modelop.h"

#include <delayq/connection.h>
#include <delayq/plainqueue.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

// The reference model of a plain sorted-set key beside a native queue (queuemodel.h): a
// producer's ZADD, a forwarder's lease (plain_lease.lua: the lease is the member's score) and
// its settle (plain_settle.lua: only while the score is still the lease score). After every
// op the key must hold exactly the model's members and scores; a lease hands out only members
// due by its own server time, and all of them while it has room; a settle is taken exactly
// when the member still holds that lease.
class PlainModel
{
public:
    PlainModel(delayq::Connection& connection, const std::string& key);

    // Throws std::runtime_error with what differed.
    void run(const ModelOp& op);
    void verify();

private:
    using Lease = std::pair<std::string, std::string>; // member, lease score

    void add(const ModelOp& op);
    void lease(const ModelOp& op);
    void settle(const ModelOp& op);

    delayq::Connection& m_connection;
    delayq::PlainQueue m_plain;
    std::string m_key;
    std::map<std::string, long long> m_scores; // member -> score, ms
    std::vector<Lease> m_leases;               // every lease handed out, settled or not
};
