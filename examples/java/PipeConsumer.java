// A consumer for `delayq work QUEUE --handler 'pipe:exec java -cp classes PipeConsumer'`, in
// plain Java with no jar: delayq starts one per worker thread, writes each task as a JSON line
// on its stdin, and reads one JSON answer line per task from its stdout (docs/targets/pipe.md).
// No Redis client, no RabbitMQ: delayq claims, retries and keeps the dead.
//
//   javac -d classes PipeConsumer.java
//   delayq work orders --handler 'pipe:exec java -cp classes PipeConsumer' --concurrency 2
//
// What it does with a task is process(): here it acks every payload except one that starts
// with "bad", which fails with the exception's message (the task's last_error; retried on its
// backoff, dead once its attempts are spent). stdout carries answers only: log on stderr.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

public final class PipeConsumer {
    public static void main(String[] args) throws IOException {
        final BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final BufferedWriter out =
                new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty())
                continue;
            final Map<String, Object> task = Json.parseObject(line);
            // The answer names the task exactly as it came: "id", or "id_base64" for an id
            // that is not UTF-8.
            final String idField = task.containsKey("id") ? "id" : "id_base64";
            final String id = (String) task.get(idField);
            String answer;
            try {
                process(task);
                answer = "\"ack\":true";
            } catch (Exception e) {
                answer = "\"fail\":" + Json.quote(String.valueOf(e.getMessage()));
            }
            out.write("{\"" + idField + "\":" + Json.quote(id) + "," + answer + "}\n");
            // delayq waits for the answers: flush once the tasks at hand are answered (a
            // buffered answer is an answer that never came).
            if (!in.ready())
                out.flush();
        }
        out.flush();
    }

    // The work. "payload" is the task's payload when it is UTF-8 (else "payload_base64");
    // "attempt" counts from 1, "max_attempts" is the task's attempts in all.
    static void process(Map<String, Object> task) {
        final String payload = (String) task.getOrDefault("payload", "");
        if (payload.startsWith("bad"))
            throw new IllegalArgumentException("cannot process " + payload + " (attempt "
                    + task.get("attempt") + " of " + task.get("max_attempts") + ")");
    }

    // Just enough JSON for delayq's task lines: one flat object of strings, numbers, true,
    // false and null. A real consumer would use its JSON library (Jackson, Gson...).
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Map<String, Object> parseObject(String text) {
            final Json p = new Json(text);
            final Map<String, Object> map = new HashMap<>();
            p.skip('{');
            p.space();
            if (p.peek() == '}')
                return map;
            for (;;) {
                p.space();
                final String key = p.string();
                p.space();
                p.skip(':');
                p.space();
                map.put(key, p.value());
                p.space();
                if (p.peek() == ',') {
                    p.i++;
                    continue;
                }
                p.skip('}');
                return map;
            }
        }

        static String quote(String text) {
            final StringBuilder b = new StringBuilder("\"");
            for (char c : text.toCharArray()) {
                if (c == '"' || c == '\\')
                    b.append('\\').append(c);
                else if (c < 0x20)
                    b.append(String.format("\\u%04x", (int) c));
                else
                    b.append(c);
            }
            return b.append('"').toString();
        }

        private Object value() {
            final char c = peek();
            if (c == '"')
                return string();
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            final int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0)
                i++;
            if (start == i)
                throw new IllegalArgumentException("unexpected " + c + " at " + i);
            final String number = s.substring(start, i);
            return number.matches("-?[0-9]+") ? (Object) Long.parseLong(number)
                                              : (Object) Double.parseDouble(number);
        }

        private String string() {
            skip('"');
            final StringBuilder b = new StringBuilder();
            for (;;) {
                final char c = s.charAt(i++);
                if (c == '"')
                    return b.toString();
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                final char e = s.charAt(i++);
                switch (e) {
                case 'n': b.append('\n'); break;
                case 't': b.append('\t'); break;
                case 'r': b.append('\r'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'u':
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                    break;
                default: b.append(e); // \" \\ \/
                }
            }
        }

        private char peek() {
            if (i >= s.length())
                throw new IllegalArgumentException("the line ends too early");
            return s.charAt(i);
        }

        private void skip(char c) {
            if (peek() != c)
                throw new IllegalArgumentException("expected " + c + " at " + i);
            i++;
        }

        private void space() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i)))
                i++;
        }
    }
}
