// A RabbitMQ listener whose failures delayq retries on a schedule (docs/targets/amqp-retry.md),
// with Debian's RabbitMQ Java client only (librabbitmq-client-java; slf4j-api from
// libslf4j-java at run time):
//
//   javac -cp /usr/share/java/amqp-client.jar -d classes RetryingListener.java
//   java -cp classes:/usr/share/java/amqp-client.jar:/usr/share/java/slf4j-api.jar \
//        RetryingListener amqp://guest:guest@localhost:5672/%2F order.cancel 2
//
// It consumes QUEUE and fails ("rejects") the first N deliveries of each message_id with
// basic.reject(requeue=false), acking the later ones: what a Spring listener does when it
// throws with default-requeue-rejected=false (or AmqpRejectAndDontRequeueException). No retry
// code here: the queue's dead-letter exchange (x-dead-letter-exchange, by argument or policy)
// sends each reject to the queue `delayq work Q --retry-from amqp://…?queue=DLQ` consumes,
// and delayq publishes it back here after its backoff step. Its x-delayq-deaths header says
// how many times it failed before. Prints "rejected ID N" or "acked ID N" per delivery.

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

public final class RetryingListener {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: RetryingListener AMQP_URL QUEUE FAILURES_PER_MESSAGE");
            System.exit(2);
        }
        final ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(args[0]);
        // Automatic recovery (on by default) reconnects and consumes again after a broker
        // restart; unacked deliveries come back from the broker, so a message may be seen twice.
        factory.setNetworkRecoveryInterval(1000);
        final String queue = args[1];
        final int failures = Integer.parseInt(args[2]);
        final Connection connection = factory.newConnection("RetryingListener");
        final Channel channel = connection.createChannel();
        channel.basicQos(50);
        // Deliveries per message_id: a real listener has its own reason to fail; this one
        // fails the first `failures` of each.
        final Map<String, Integer> seen = new HashMap<>();
        channel.basicConsume(queue, false, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties props,
                                       byte[] body) throws IOException {
                final String id = props.getMessageId();
                final int n = seen.merge(id, 1, Integer::sum);
                if (n <= failures) {
                    // Spring: throw new AmqpRejectAndDontRequeueException("…")
                    channel.basicReject(envelope.getDeliveryTag(), false);
                    print("rejected " + id + " " + n);
                } else {
                    channel.basicAck(envelope.getDeliveryTag(), false);
                    print("acked " + id + " " + n);
                }
            }
        });
        // Runs until stdin closes (or the process is stopped).
        while (System.in.read() >= 0) {
        }
        connection.abort(); // also when a broker restart left it closed: never throws
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
