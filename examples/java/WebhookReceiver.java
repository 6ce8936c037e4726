// A webhook endpoint for `delayq work QUEUE --handler http://HOST:PORT/hook` on the JDK's own
// HTTP server (com.sun.net.httpserver), no other jar. It checks delayq's Standard Webhooks
// signature (docs/targets/webhook.md) and refuses a request whose signature is missing or
// wrong with 401, which delayq records as the task's failure and retries on its backoff.
//
//   javac -d classes WebhookReceiver.java
//   WEBHOOK_SECRET=whsec_... java -cp classes WebhookReceiver 8080
//   delayq work orders --handler http://127.0.0.1:8080/hook --webhook-secret-file secret.txt
//
// The secret is the one delayq signs with (--webhook-secret-file, or $DELAYQ_WEBHOOK_SECRET):
// "whsec_" and the key's bytes in base64, or any other text, whose bytes are the key.
// Port 0 takes a free one. The first line on stdout is "listening on PORT"; then one line
// per request: "acked ID ATTEMPT", "duplicate ID" or "refused REASON".

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public final class WebhookReceiver {
    // The Standard Webhooks specification's advice: refuse a timestamp further than five
    // minutes from this clock, so that a captured request cannot be replayed later.
    private static final long TOLERANCE_SECONDS = 5 * 60;

    private final byte[] key;
    // Delivery is at least once: a task may come twice (same webhook-id) after a worker died
    // between our answer and its ack. A real service keeps this in its database.
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    WebhookReceiver(String secret) {
        key = secret.startsWith("whsec_")
                ? Base64.getDecoder().decode(secret.substring("whsec_".length()))
                : secret.getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws IOException {
        final String secret = System.getenv("WEBHOOK_SECRET");
        if (secret == null || secret.isEmpty()) {
            System.err.println("WebhookReceiver: set WEBHOOK_SECRET to the secret delayq signs with");
            System.exit(2);
        }
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        final WebhookReceiver receiver = new WebhookReceiver(secret);
        final HttpServer server =
                HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/hook", receiver::handle);
        // delayq keeps up to 8 requests in flight per worker thread, on kept-alive connections.
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        System.out.println("listening on " + server.getAddress().getPort());
        System.out.flush();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            final byte[] body = readAll(exchange.getRequestBody());
            final String id = exchange.getRequestHeaders().getFirst("webhook-id");
            final String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
            final String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
            final String refusal = check(id, timestamp, signatures, body);
            if (refusal != null) {
                say("refused " + refusal);
                answer(exchange, 401, refusal);
                return;
            }
            if (!seen.add(id)) {
                say("duplicate " + id);
                answer(exchange, 200, "duplicate");
                return;
            }
            // The work itself goes here: the body is the task's payload, byte for byte.
            say("acked " + id + " " + exchange.getRequestHeaders().getFirst("delayq-attempt"));
            answer(exchange, 200, "ok");
        }
    }

    // Why the request is refused, or null when its signature is right.
    String check(String id, String timestamp, String signatures, byte[] body) {
        if (id == null || timestamp == null || signatures == null)
            return "unsigned: webhook-id, webhook-timestamp or webhook-signature is missing";
        final long sent;
        try {
            sent = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return "webhook-timestamp is not a number";
        }
        if (Math.abs(System.currentTimeMillis() / 1000 - sent) > TOLERANCE_SECONDS)
            return "webhook-timestamp is more than five minutes away";
        final byte[] expected = sign(id, timestamp, body);
        // The header may hold several signatures, space-separated, each "v1,BASE64".
        for (String s : signatures.split(" ")) {
            if (!s.startsWith("v1,"))
                continue;
            final byte[] given;
            try {
                given = Base64.getDecoder().decode(s.substring(3));
            } catch (IllegalArgumentException e) {
                continue;
            }
            if (MessageDigest.isEqual(expected, given)) // constant time
                return null;
        }
        return "bad signature";
    }

    // HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>".
    private byte[] sign(String id, String timestamp, byte[] body) {
        try {
            final Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        return in.readAllBytes();
    }

    private static void answer(HttpExchange exchange, int status, String text) throws IOException {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
