package dev.jgrad.nn.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON reader and writer (RFC 8259), enough for safetensors headers, corpora, metrics and
 * summaries, so that jgrad needs no JSON library. Objects read as {@link LinkedHashMap} (keys keep their
 * order), arrays as {@link List}, numbers as {@link Long} when integral and written without a fraction or
 * exponent, else {@link Double}; strings, booleans and null as themselves.
 *
 * <p>Strict: numbers follow the RFC's grammar exactly ({@code 01}, {@code 1.}, {@code .5}, {@code 1.e5}
 * are refused), a key may appear once per object (as safetensors requires), and nesting is limited to
 * {@link #MAX_DEPTH} levels, so hostile input gets an error, never a stack overflow. The caller bounds
 * the size of the text it reads.
 */
public final class Json {
    /** The deepest nesting of arrays and objects read; jgrad's own files need fewer than ten. */
    public static final int MAX_DEPTH = 256;
    private final String text;
    private int pos;
    private int depth;

    private Json(String text) {
        this.text = text;
    }

    /** Parses one JSON value; anything but whitespace after it is an error. */
    public static Object parse(String text) {
        Json p = new Json(text);
        p.skipWhitespace();
        Object v = p.value();
        p.skipWhitespace();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the JSON value");
        }
        return v;
    }

    private IllegalArgumentException error(String what) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new IllegalArgumentException("invalid JSON at line " + line + ", column " + col + ": " + what);
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                break;
            }
            pos++;
        }
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
            case '[':
                if (++depth > MAX_DEPTH) {
                    throw error("nested deeper than " + MAX_DEPTH + " levels");
                }
                Object nested = c == '{' ? object() : array();
                depth--;
                return nested;
            case '"': return string();
            case 't': return literal("true", Boolean.TRUE);
            case 'f': return literal("false", Boolean.FALSE);
            case 'n': return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private Object literal(String word, Object v) {
        if (!text.startsWith(word, pos)) {
            throw error("expected " + word);
        }
        pos += word.length();
        return v;
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            String key = string();
            skipWhitespace();
            if (peek() != ':') {
                throw error("expected ':' after key \"" + key + "\"");
            }
            pos++;
            skipWhitespace();
            if (m.containsKey(key)) {
                throw error("duplicate key \"" + cut(key) + "\"");
            }
            m.put(key, value());
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}' in object");
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            skipWhitespace();
            list.add(value());
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']' in array");
            }
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        return text.charAt(pos);
    }

    private String string() {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                char e = peek();
                pos++;
                switch (e) {
                    case '"': sb.append('"'); break;
                    case '\\': sb.append('\\'); break;
                    case '/': sb.append('/'); break;
                    case 'b': sb.append('\b'); break;
                    case 'f': sb.append('\f'); break;
                    case 'n': sb.append('\n'); break;
                    case 'r': sb.append('\r'); break;
                    case 't': sb.append('\t'); break;
                    case 'u':
                        int code = 0;
                        for (int i = 0; i < 4; i++) {
                            int digit = pos + i < text.length() ? Character.digit(text.charAt(pos + i), 16) : -1;
                            if (digit < 0) {
                                throw error("bad \\u escape: expected 4 hex digits");
                            }
                            code = code * 16 + digit;
                        }
                        sb.append((char) code);
                        pos += 4;
                        break;
                    default:
                        throw error("bad escape \\" + e);
                }
            } else if (c < 0x20) {
                throw error("control character in string");
            } else {
                sb.append(c);
            }
        }
    }

    /** {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}, as RFC 8259 writes it. */
    private Object number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (pos < text.length() && text.charAt(pos) == '0') {
            pos++;
        } else if (digits() == 0) {
            throw error("bad number: expected a digit after '-'");
        }
        boolean integral = true;
        if (pos < text.length() && text.charAt(pos) == '.') {
            pos++;
            integral = false;
            if (digits() == 0) {
                throw error("bad number '" + cut(text.substring(start, pos)) + "': expected a digit after the '.'");
            }
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            pos++;
            integral = false;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (digits() == 0) {
                throw error("bad number '" + cut(text.substring(start, pos)) + "': expected a digit in the exponent");
            }
        }
        if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
            throw error("bad number '" + cut(text.substring(start, pos + 1)) + "': no leading zeros");
        }
        String s = text.substring(start, pos);
        if (integral) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException big) {
                return Double.parseDouble(s);
            }
        }
        return Double.parseDouble(s);
    }

    /** Skips ASCII digits; returns how many. */
    private int digits() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos - start;
    }

    private static String cut(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    /** Compact JSON text of a value made of maps, lists, strings, numbers, booleans and null. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb, -1, 0);
        return sb.toString();
    }

    /** Indented JSON text (two spaces per level); arrays of numbers stay on one line. */
    public static String writePretty(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb, 2, 0);
        return sb.append('\n').toString();
    }

    private static void write(Object v, StringBuilder sb, int indent, int level) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            quote((String) v, sb);
        } else if (v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("JSON has no NaN or infinity; write them as strings");
            }
            if (d == 0 && 1 / d < 0) {
                sb.append("-0.0");
            } else {
                sb.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) + ".0" : String.valueOf(d));
            }
        } else if (v instanceof Number) {
            sb.append(((Number) v).longValue());
        } else if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                newline(sb, indent, level + 1);
                quote(String.valueOf(e.getKey()), sb);
                sb.append(indent >= 0 ? ": " : ":");
                write(e.getValue(), sb, indent, level + 1);
            }
            if (!m.isEmpty()) {
                newline(sb, indent, level);
            }
            sb.append('}');
        } else if (v instanceof List) {
            List<?> l = (List<?>) v;
            boolean flat = l.stream().allMatch(x -> !(x instanceof Map) && !(x instanceof List));
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(flat && indent >= 0 ? ", " : ",");
                }
                if (!flat) {
                    newline(sb, indent, level + 1);
                }
                write(l.get(i), sb, indent, level + 1);
            }
            if (!flat && !l.isEmpty()) {
                newline(sb, indent, level);
            }
            sb.append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
        }
    }

    private static void newline(StringBuilder sb, int indent, int level) {
        if (indent >= 0) {
            sb.append('\n').append(" ".repeat(indent * level));
        }
    }

    private static void quote(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }
}
