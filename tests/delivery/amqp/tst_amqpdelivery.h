#pragma once

#include "amqpsuite.h"

// delayq work --handler amqp://… against a private RabbitMQ node and a private Redis: what a
// consumer receives; every task at least once (exactly once by message_id) through worker
// SIGKILLs, a broker crash and restart, a frozen broker and the memory alarm
// (tst_amqpdelivery.cpp); returns, a deleted exchange, nacks, the refusals before anything is
// claimed, bad URLs and the TLS checks (amqpfailures.cpp); ids and members too long for a
// message_id, and a payload the broker refuses (amqplimits.cpp); the URL's message properties
// and dead tasks to dead_exchange= (amqpproperties.cpp).
class TestAmqpDelivery : public AmqpSuite
{
    Q_OBJECT

private slots:
    void deliversEachTaskWithItsProperties_data();
    void deliversEachTaskWithItsProperties();
    void survivesWorkerKills();
    void survivesBrokerRestart();
    void silentBrokerTimesOut();
    void memoryAlarmHoldsClaims();

    void longIdKeepsItsMessageIdAcrossRetries();
    void longPlainMemberIsForwarded();
    void oversizedPayloadFailsAlone();
    void unsendableTaskFailsAloneInItsClaim_data();
    void unsendableTaskFailsAloneInItsClaim();

    void unroutableTasksDie();
    void deletedExchangeFailsWithTheBrokersReason();
    void nackedTaskFails();
    void refusesBeforeClaiming_data();
    void refusesBeforeClaiming();
    void refusesBadUrls_data();
    void refusesBadUrls();
    void checksTheBrokersCertificate_data();
    void checksTheBrokersCertificate();

    void setsTheUrlsMessageProperties_data();
    void setsTheUrlsMessageProperties();
    void deadTasksGoToTheDeadLetterExchange_data();
    void deadTasksGoToTheDeadLetterExchange();
};
