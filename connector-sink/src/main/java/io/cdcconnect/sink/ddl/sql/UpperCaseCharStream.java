package io.cdcconnect.sink.ddl.sql;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.misc.Interval;

/**
 * The text as the grammar's lexer expects it: its keyword rules are written in upper case, and SQL keywords are not
 * case-sensitive. Only what the lexer looks at is upper-cased; token text stays as written.
 */
final class UpperCaseCharStream implements CharStream {

    private final CharStream in;

    UpperCaseCharStream(CharStream in) {
        this.in = in;
    }

    @Override
    public int LA(int i) {
        int c = in.LA(i);
        return c <= 0 ? c : Character.toUpperCase(c);
    }

    @Override
    public String getText(Interval interval) {
        return in.getText(interval);
    }

    @Override
    public void consume() {
        in.consume();
    }

    @Override
    public int mark() {
        return in.mark();
    }

    @Override
    public void release(int marker) {
        in.release(marker);
    }

    @Override
    public int index() {
        return in.index();
    }

    @Override
    public void seek(int index) {
        in.seek(index);
    }

    @Override
    public int size() {
        return in.size();
    }

    @Override
    public String getSourceName() {
        return in.getSourceName();
    }
}
