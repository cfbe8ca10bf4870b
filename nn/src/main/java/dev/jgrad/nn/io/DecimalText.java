package dev.jgrad.nn.io;

import java.util.Locale;

/**
 * Numbers in text as data files write them (CSV tables, metrics.csv): a decimal with an optional sign, point and exponent,
 * or nan, inf, infinity in any case with an optional sign. Not Java's own extras (1.5f, 2d, hex, underscores), which a
 * file from NumPy or pandas never holds and which usually mean the file is not what it seems.
 */
public final class DecimalText {
    private DecimalText() {
    }

    /**
     * Whether {@code s} is such a number: an optional sign, digits with an optional decimal point (at least one digit), an
     * optional exponent; or nan, inf, infinity in any case.
     */
    public static boolean isNumber(String s) {
        int n = s.length();
        int i = n > 0 && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
        if (i == n) {
            return false;
        }
        char c = s.charAt(i);
        if (c == 'n' || c == 'N' || c == 'i' || c == 'I') {
            String word = s.substring(i).toLowerCase(Locale.ROOT);
            return word.equals("nan") || word.equals("inf") || word.equals("infinity");
        }
        int digits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int exponent = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                exponent++;
            }
            if (exponent == 0) {
                return false;
            }
        }
        return i == n;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** {@code s} as a double; a NumberFormatException naming it where it is not a number. */
    public static double parseDouble(String s) {
        Double word = word(checked(s));
        return word != null ? word : Double.parseDouble(s);
    }

    /** {@code s} as a float, rounded once from the text; a NumberFormatException naming it where it is not a number. */
    public static float parseFloat(String s) {
        Double word = word(checked(s));
        return word != null ? word.floatValue() : Float.parseFloat(s);
    }

    private static String checked(String s) {
        if (!isNumber(s)) {
            throw new NumberFormatException("'" + s + "' is not a number");
        }
        return s;
    }

    /** NaN or an infinity where {@code s} (a number) is one of the words, else null. */
    private static Double word(String s) {
        int i = s.charAt(0) == '+' || s.charAt(0) == '-' ? 1 : 0;
        char c = s.charAt(i);
        if (c == 'n' || c == 'N') {
            return Double.NaN;
        }
        if (c == 'i' || c == 'I') {
            return s.charAt(0) == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return null;
    }
}
