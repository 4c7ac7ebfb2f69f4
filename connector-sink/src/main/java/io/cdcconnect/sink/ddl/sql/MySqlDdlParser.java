package io.cdcconnect.sink.ddl.sql;

import io.cdcconnect.sink.ddl.sql.ParsedDdl.Kind;
import io.debezium.ddl.parser.mariadb.generated.MariaDBLexer;
import io.debezium.ddl.parser.mariadb.generated.MariaDBParser;
import io.debezium.ddl.parser.mysql.generated.MySqlLexer;
import io.debezium.ddl.parser.mysql.generated.MySqlParser;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sink's one reading of DDL text: Debezium's maintained ANTLR grammars of MySQL (and, for what only MariaDB
 * writes, such as {@code ADD COLUMN IF NOT EXISTS}, of MariaDB), walked into a {@link ParsedDdl}. The walk is an
 * allow-list: the statement kinds {@code ddl.apply} names, the ALTER TABLE clauses and table options listed here, and
 * in expressions only the functions listed here. Anything else refuses the text with a reason:
 * <ul>
 *   <li>more or less than one statement, or text the grammar does not read;</li>
 *   <li>executable comments ({@code /*!...*}{@code /}, {@code /*M!...*}{@code /}); other comments are dropped, TiDB
 *   feature comments in the forms TiCDC writes ({@link #TIDB_FEATURES}) are kept for TiDB targets;</li>
 *   <li>temporary tables, CREATE TABLE ... SELECT, subqueries, variables, user-defined or unlisted functions;</li>
 *   <li>table options outside the list (DATA/INDEX DIRECTORY, CONNECTION, UNION, TABLESPACE, ...); an ENGINE other
 *   than InnoDB is dropped, so the target's default engine is used;</li>
 *   <li>ALTER TABLE clauses outside the list (EXCHANGE/IMPORT/DISCARD, maintenance of partitions, ...).</li>
 * </ul>
 * What is executed is written from the result ({@link ParsedDdl#mysql}), never the text itself.
 */
public final class MySqlDdlParser {

    /** Longer DDL text is refused unread: no schema change of a table needs a megabyte. */
    public static final int MAX_LENGTH = 1 << 20;
    /** Deeper nesting of parentheses is refused unread: it would only exhaust the parser's stack. */
    static final int MAX_NESTING = 64;

    private static final Pattern SIMPLE_NAME = Pattern.compile("[\\p{L}\\p{N}_$\\u0080-\\uFFFF]+");
    private static final Pattern NUMBER = Pattern.compile(
            "(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?");
    private static final Pattern HEX = Pattern.compile("(?i)x'(?:[0-9a-f]{2})*'|0x[0-9a-f]+");
    private static final Pattern BITS = Pattern.compile("(?i)b'[01]*'|0b[01]+");
    private static final Pattern FILE_SIZE = Pattern.compile("(?i)[0-9]+[kmgt]");
    private static final Pattern INTRODUCER = Pattern.compile("(?i)_[a-z0-9]+");
    private static final Pattern KEYWORD = Pattern.compile("[A-Z_][A-Z0-9_]*");
    private static final Set<String> PUNCTUATION = Set.of("(", ")", ",", "=", ".", "-", "+", "*", "/", "%", "<", ">",
            "<=", ">=", "<>", "!=", "<=>", "!", "~", "^", "&", "|", "&&", "||", "<<", ">>", "->", "->>");

    /**
     * TiDB's feature comments in the forms TiCDC writes into DDL (TiDB's {@code format.RestoreTiDBSpecialComment}):
     * clustered indexes, AUTO_RANDOM, AUTO_ID_CACHE, SHARD_ROW_ID_BITS and PRE_SPLIT_REGIONS, each with numbers only.
     * Written again in the spelling on the right, for TiDB targets; dropped for others, as MySQL and MariaDB do.
     */
    static final Map<Pattern, Function<Matcher, String>> TIDB_FEATURES = Map.of(
            Pattern.compile("(?i)/\\*T!\\[clustered_index]\\s*(CLUSTERED|NONCLUSTERED)\\s*\\*/"),
            m -> "/*T![clustered_index] " + m.group(1).toUpperCase(Locale.ROOT) + " */",
            Pattern.compile("(?i)/\\*T!\\[auto_rand]\\s*AUTO_RANDOM\\s*\\(\\s*([0-9]{1,3})\\s*(?:,\\s*([0-9]{1,3})\\s*)?\\)\\s*\\*/"),
            m -> "/*T![auto_rand] AUTO_RANDOM(" + m.group(1) + (m.group(2) == null ? "" : ", " + m.group(2)) + ") */",
            Pattern.compile("(?i)/\\*T!\\[auto_rand_base]\\s*AUTO_RANDOM_BASE\\s*=\\s*([0-9]{1,20})\\s*\\*/"),
            m -> "/*T![auto_rand_base] AUTO_RANDOM_BASE=" + m.group(1) + " */",
            Pattern.compile("(?i)/\\*T!\\[auto_id_cache]\\s*AUTO_ID_CACHE\\s*=\\s*([0-9]{1,20})\\s*\\*/"),
            m -> "/*T![auto_id_cache] AUTO_ID_CACHE=" + m.group(1) + " */",
            Pattern.compile("(?i)/\\*T!\\s*SHARD_ROW_ID_BITS\\s*=\\s*([0-9]{1,3})\\s*\\*/"),
            m -> "/*T! SHARD_ROW_ID_BITS=" + m.group(1) + " */",
            Pattern.compile("(?i)/\\*T!\\s*PRE_SPLIT_REGIONS\\s*=\\s*([0-9]{1,3})\\s*\\*/"),
            m -> "/*T! PRE_SPLIT_REGIONS=" + m.group(1) + " */");

    /** The statements, by the grammar's rule (or labelled alternative) name. */
    private static final Map<String, Kind> STATEMENTS = Map.ofEntries(
            Map.entry("ColumnCreateTable", Kind.CREATE_TABLE), Map.entry("CopyCreateTable", Kind.CREATE_TABLE),
            Map.entry("AlterTable", Kind.ALTER_TABLE), Map.entry("DropTable", Kind.DROP_TABLE),
            Map.entry("TruncateTable", Kind.TRUNCATE_TABLE), Map.entry("RenameTable", Kind.RENAME_TABLE),
            Map.entry("CreateIndex", Kind.CREATE_INDEX), Map.entry("DropIndex", Kind.DROP_INDEX),
            Map.entry("CreateDatabase", Kind.CREATE_DATABASE), Map.entry("AlterSimpleDatabase", Kind.ALTER_DATABASE),
            Map.entry("DropDatabase", Kind.DROP_DATABASE));

    /** The ALTER TABLE clauses that change a table's definition. */
    private static final Set<String> ALTER_CLAUSES = Set.of("AlterByTableOption", "AlterByAddColumn",
            "AlterByAddColumns", "AlterByAddIndex", "AlterByAddPrimaryKey", "AlterByAddUniqueKey",
            "AlterByAddSpecialIndex", "AlterByAddForeignKey", "AlterByAddCheckTableConstraint",
            "AlterByAlterCheckTableConstraint", "AlterBySetAlgorithm", "AlterByChangeDefault", "AlterByChangeColumn",
            "AlterByRenameColumn", "AlterByLock", "AlterByModifyColumn", "AlterByDropColumn",
            "AlterByDropConstraintCheck", "AlterByDropPrimaryKey", "AlterByDropIndex", "AlterByRenameIndex",
            "AlterByAlterColumnDefault", "AlterByAlterIndexVisibility", "AlterByDropForeignKey", "AlterByDisableKeys",
            "AlterByEnableKeys", "AlterByRename", "AlterByOrder", "AlterByConvertCharset", "AlterByDefaultCharset",
            "AlterByForce", "AlterByValidate", "AlterByAddPartition", "AlterByDropPartition",
            "AlterByTruncatePartition", "AlterByCoalescePartition", "AlterByReorganizePartition",
            "AlterByRemovePartitioning", "AlterByAddDefinitions", "AlterPartition");

    /** Table options that say how a table's rows are kept, not where or by whom. */
    private static final Set<String> TABLE_OPTIONS = Set.of("TableOptionEngine", "TableOptionAutoIncrement",
            "TableOptionAverage", "TableOptionCharset", "TableOptionChecksum", "TableOptionCollate",
            "TableOptionComment", "TableOptionKeyBlockSize", "TableOptionMaxRows", "TableOptionMinRows",
            "TableOptionPackKeys", "TableOptionRowFormat", "TableOptionRecalculation", "TableOptionPersistent",
            "TableOptionSamplePage", "TableOptionPageCompressed", "TableOptionPageCompressionLevel",
            "TableOptionTransactional");

    /** Partition options the same way. */
    private static final Set<String> PARTITION_OPTIONS = Set.of("PartitionOptionEngine", "PartitionOptionComment",
            "PartitionOptionMaxRows", "PartitionOptionMinRows");

    /**
     * Functions an expression in DDL (a default, a generated column, a CHECK, a partitioning function) may call:
     * deterministic built-ins that read nothing but their arguments, and the clock.
     */
    private static final Set<String> FUNCTIONS = Set.of("ABS", "CEIL", "CEILING", "FLOOR", "ROUND", "TRUNCATE", "MOD",
            "SIGN", "GREATEST", "LEAST", "COALESCE", "IFNULL", "NULLIF", "IF", "ISNULL", "CONCAT", "CONCAT_WS",
            "LOWER", "LCASE", "UPPER", "UCASE", "LEFT", "RIGHT", "SUBSTRING", "SUBSTR", "MID", "SUBSTRING_INDEX",
            "TRIM", "LTRIM", "RTRIM", "LPAD", "RPAD", "REPLACE", "REVERSE", "REPEAT", "LENGTH", "CHAR_LENGTH",
            "CHARACTER_LENGTH", "OCTET_LENGTH", "BIT_LENGTH", "LOCATE", "INSTR", "HEX", "UNHEX", "MD5", "SHA1", "SHA2",
            "CRC32", "NOW", "CURDATE", "CURTIME", "UTC_DATE", "UTC_TIME", "UTC_TIMESTAMP", "SYSDATE", "DATE", "TIME",
            "YEAR", "MONTH", "DAY", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR", "HOUR", "MINUTE", "SECOND", "QUARTER",
            "WEEK", "TO_DAYS", "TO_SECONDS", "UNIX_TIMESTAMP", "FROM_UNIXTIME", "DATE_FORMAT", "DATE_ADD", "DATE_SUB",
            "DATEDIFF", "TIMESTAMPDIFF", "MAKEDATE", "STR_TO_DATE", "UUID", "UUID_SHORT", "UUID_TO_BIN", "BIN_TO_UUID",
            "JSON_ARRAY", "JSON_OBJECT", "JSON_EXTRACT", "JSON_UNQUOTE", "JSON_VALID", "JSON_LENGTH", "JSON_QUOTE",
            "JSON_CONTAINS", "INET_ATON", "INET_NTOA", "INET6_ATON", "INET6_NTOA", "POW", "POWER", "SQRT", "EXP",
            "LN", "LOG", "LOG2", "LOG10", "PI", "RAND", "CONV", "BIN", "OCT", "ASCII", "ORD", "CHAR", "FIELD", "ELT",
            "FORMAT", "ST_GEOMFROMTEXT", "POINT");

    /**
     * Reserved words MySQL reads as a call of a function without parentheses wherever they stand unquoted in an
     * expression: the clock. (A column of that name can only be written quoted, and then stays a name.)
     */
    private static final Set<String> NILADIC = Set.of("CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP",
            "LOCALTIME", "LOCALTIMESTAMP", "UTC_DATE", "UTC_TIME", "UTC_TIMESTAMP");

    /** Parts of an expression no schema change needs. */
    private static final Set<String> REFUSED_IN_EXPRESSIONS = Set.of("SubqueryExpressionAtom", "ExistsExpressionAtom",
            "SubqueryComparisonPredicate", "UdfFunctionCall", "PasswordFunctionCall", "AggregateWindowedFunction",
            "NonAggregateWindowedFunction", "MysqlVariable", "MysqlVariableExpressionAtom",
            "VariableAssignExpressionAtom", "ValuesFunctionCall", "SelectStatement", "SimpleSelect",
            "QuerySpecification", "ParenthesisSelect", "UnionSelect", "UnionParenthesisSelect", "WithClause");

    /**
     * Statements {@link #warmUp} reads: the DDL a stream begins with (a snapshot's CREATE statements, as our source
     * and TiCDC write them) and the common changes after.
     */
    static final List<String> WARM_UP = List.of(
            "CREATE DATABASE IF NOT EXISTS `cdc_warmup`",
            "CREATE TABLE IF NOT EXISTS `cdc_warmup`.`orders` (`id` bigint unsigned NOT NULL AUTO_INCREMENT, "
                    + "`k` int(11) NOT NULL DEFAULT 0, `c` char(120) NOT NULL DEFAULT '', "
                    + "`name` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL, "
                    + "`price` decimal(12,2) NOT NULL DEFAULT 0.00, `body` text, `doc` json DEFAULT NULL, "
                    + "`state` enum('new','paid') NOT NULL DEFAULT 'new', `day` date DEFAULT NULL, "
                    + "`created` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), "
                    + "`updated` timestamp NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP, "
                    + "PRIMARY KEY (`id`), UNIQUE KEY `uk_name` (`name`), KEY `k_1` (`k`)) "
                    + "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci",
            "ALTER TABLE `cdc_warmup`.`orders` ADD COLUMN `note` varchar(64) DEFAULT NULL AFTER `name`",
            "ALTER TABLE `cdc_warmup`.`orders` MODIFY COLUMN `note` varchar(128) NULL, ADD INDEX `k_2` (`note`)",
            "TRUNCATE TABLE `cdc_warmup`.`orders`",
            "DROP TABLE IF EXISTS `cdc_warmup`.`orders`");

    private MySqlDdlParser() {
    }

    /**
     * Reads {@link #WARM_UP} and returns how many statements were read: the grammar's first statements in a fresh JVM
     * take about half a second (ANTLR builds its state machine and fills its prediction cache, both shared by every
     * parse after), and a task that gets DDL first would wait that long behind it. Run by the sink's start-up warm-up;
     * reads text only.
     */
    public static int warmUp() {
        int read = 0;
        for (String sql : WARM_UP) {
            parse(sql);
            read++;
        }
        return read;
    }

    /** Reads {@code sql}; throws {@link RefusedDdlException} with the reason when it is not one change the sink runs. */
    public static ParsedDdl parse(String sql) {
        return parse(sql, true);
    }

    /**
     * As {@link #parse(String)}; {@code sllFirst} false reads with full LL prediction only (what the sink did before
     * it tried SLL first): for the test that both read every statement alike.
     */
    static ParsedDdl parse(String sql, boolean sllFirst) {
        if (sql == null || sql.isBlank()) throw new RefusedDdlException("no statement");
        if (sql.length() > MAX_LENGTH) {
            throw new RefusedDdlException("the statement is longer than " + MAX_LENGTH + " characters");
        }
        RefusedDdlException mysql;
        try {
            return read(sql, false, sllFirst);
        } catch (RefusedDdlException e) {
            if (!e.getMessage().startsWith(SYNTAX)) throw e;
            mysql = e;
        }
        try {
            return read(sql, true, sllFirst);
        } catch (RefusedDdlException e) {
            // MariaDB's grammar did not read it either: MySQL's reason is the one to give
            if (e.getMessage().startsWith(SYNTAX)) throw mysql;
            throw e;
        }
    }

    private static final String SYNTAX = "the text does not parse as MySQL or MariaDB DDL";

    private static ParsedDdl read(String sql, boolean mariadb, boolean sllFirst) {
        BaseErrorListener fail = new BaseErrorListener() {
            @Override
            public void syntaxError(Recognizer<?, ?> r, Object symbol, int line, int column, String msg,
                                    RecognitionException e) {
                throw new RefusedDdlException(SYNTAX + " (line " + line + ", column " + (column + 1) + ": "
                        + printable(msg) + ")");
            }
        };
        UpperCaseCharStream chars = new UpperCaseCharStream(CharStreams.fromString(sql));
        Lexer lexer = mariadb ? new MariaDBLexer(chars) : new MySqlLexer(chars);
        lexer.removeErrorListeners();
        lexer.addErrorListener(fail);
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        checkTokens(tokens.getTokens(), lexer.getVocabulary());
        ParseTree root;
        try {
            // SLL prediction first, which reads every statement of a schema change's kinds without the full-context
            // prediction (about ten times less work in a fresh JVM, and far less for the JIT to compile); a statement
            // it cannot read is read again with full LL, which alone decides a syntax error
            root = root(tokens, mariadb, sllFirst ? null : fail);
        } catch (org.antlr.v4.runtime.misc.ParseCancellationException e) {
            tokens.seek(0);
            root = root(tokens, mariadb, fail);
        } catch (StackOverflowError e) {
            throw new RefusedDdlException("the statement nests too deeply to be read");
        }
        return new Walk(tokens, lexer.getVocabulary()).statement(root);
    }

    /**
     * The parse tree of {@code tokens}: with {@code fail} null by SLL prediction, stopping at the first error
     * ({@link org.antlr.v4.runtime.misc.ParseCancellationException}); else by full LL prediction, {@code fail} reporting
     * the first error.
     */
    private static ParseTree root(CommonTokenStream tokens, boolean mariadb, BaseErrorListener fail) {
        Parser parser = mariadb ? new MariaDBParser(tokens) : new MySqlParser(tokens);
        parser.removeErrorListeners();
        if (fail == null) {
            parser.getInterpreter().setPredictionMode(org.antlr.v4.runtime.atn.PredictionMode.SLL);
            parser.setErrorHandler(new org.antlr.v4.runtime.BailErrorStrategy());
        } else {
            parser.addErrorListener(fail);
        }
        try {
            return mariadb ? ((MariaDBParser) parser).root() : ((MySqlParser) parser).root();
        } catch (StackOverflowError e) {
            throw new RefusedDdlException("the statement nests too deeply to be read");
        }
    }

    /** Refuses executable comments and unbounded nesting before the parser sees the text. */
    private static void checkTokens(List<Token> tokens, Vocabulary vocabulary) {
        int depth = 0;
        for (Token t : tokens) {
            String type = vocabulary.getSymbolicName(t.getType());
            if (t.getChannel() != Token.DEFAULT_CHANNEL && t.getChannel() != Token.HIDDEN_CHANNEL
                    || "SPEC_MYSQL_COMMENT".equals(type)) {
                throw new RefusedDdlException("an executable comment (/*!...*/) the server would run");
            }
            if (t.getChannel() == Token.HIDDEN_CHANNEL && t.getText().startsWith("/*M!")) {
                throw new RefusedDdlException("an executable comment (/*M!...*/) MariaDB would run");
            }
            if (t.getChannel() == Token.DEFAULT_CHANNEL) {
                if (t.getText().equals("(")) {
                    if (++depth > MAX_NESTING) {
                        throw new RefusedDdlException("parentheses nested deeper than " + MAX_NESTING);
                    }
                } else if (t.getText().equals(")")) {
                    depth--;
                }
            }
        }
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().limit(160).forEach(c -> {
            if (Character.isISOControl(c)) sb.append(String.format("\\u%04x", c));
            else sb.appendCodePoint(c);
        });
        return sb.toString();
    }

    /** One walk over one parse tree. */
    private static final class Walk {
        private final CommonTokenStream tokens;
        private final Vocabulary vocabulary;
        private final List<ParsedDdl.Piece> pieces = new ArrayList<>();
        private final List<ParsedDdl.TableRef> tables = new ArrayList<>();
        private final Set<String> schemas = new LinkedHashSet<>();
        private final List<String> columns = new ArrayList<>();
        private final List<String> options = new ArrayList<>();
        private String database;
        private Kind kind;

        Walk(CommonTokenStream tokens, Vocabulary vocabulary) {
            this.tokens = tokens;
            this.vocabulary = vocabulary;
        }

        ParsedDdl statement(ParseTree root) {
            ParserRuleContext ddl = single(root);
            String name = rule(ddl);
            kind = STATEMENTS.get(name);
            if (kind == null) {
                if (name.equals("QueryCreateTable")) {
                    throw new RefusedDdlException("CREATE TABLE ... SELECT copies data no change event carries");
                }
                throw new RefusedDdlException("'" + head(ddl) + " ...' is not a schema change the sink runs");
            }
            for (int i = 0; i < ddl.getChildCount(); i++) {
                if (ddl.getChild(i) instanceof TerminalNode t && t.getSymbol().getType() > 0
                        && "TEMPORARY".equalsIgnoreCase(t.getText())) {
                    throw new RefusedDdlException("temporary tables belong to a session, not to the stream");
                }
                if (ddl.getChild(i) instanceof ParserRuleContext r && rule(r).equals("OrReplace")) {
                    throw new RefusedDdlException("CREATE OR REPLACE drops what it replaces; the stream says DROP "
                            + "and CREATE");
                }
            }
            walk(ddl);
            return new ParsedDdl(kind, tables, database, schemas, columns, options, pieces);
        }

        /** The one DDL statement under the root, or a refusal. */
        private ParserRuleContext single(ParseTree root) {
            List<ParserRuleContext> statements = new ArrayList<>();
            collect(root, "SqlStatement", statements);
            if (statements.size() != 1) {
                throw new RefusedDdlException(statements.isEmpty() ? "no statement"
                        : "a second statement (" + statements.size() + " in the text)");
            }
            ParserRuleContext s = statements.get(0);
            if (s.getChildCount() != 1 || !rule((ParserRuleContext) s.getChild(0)).equals("DdlStatement")) {
                throw new RefusedDdlException("'" + head(s) + " ...' is not a schema change the sink runs");
            }
            return (ParserRuleContext) s.getChild(0).getChild(0);
        }

        private static void collect(ParseTree t, String rule, List<ParserRuleContext> out) {
            if (!(t instanceof ParserRuleContext c)) return;
            if (rule(c).equals(rule)) {
                out.add(c);
                return;
            }
            for (int i = 0; i < c.getChildCount(); i++) collect(c.getChild(i), rule, out);
        }

        private static String head(ParserRuleContext c) {
            List<String> words = new ArrayList<>();
            headWords(c, words);
            return printable(String.join(" ", words)).toUpperCase(Locale.ROOT);
        }

        private static void headWords(ParseTree t, List<String> words) {
            if (words.size() >= 3) return;
            if (t instanceof TerminalNode n) {
                if (n.getSymbol().getType() > 0) words.add(n.getText());
                return;
            }
            for (int i = 0; i < t.getChildCount() && words.size() < 3; i++) headWords(t.getChild(i), words);
        }

        private void walk(ParseTree t) {
            if (t instanceof TerminalNode n) {
                terminal(n);
                return;
            }
            ParserRuleContext c = (ParserRuleContext) t;
            String name = rule(c);
            if ((name.equals("Uid") || name.equals("SimpleId") || name.equals("FullColumnName"))
                    && NILADIC.contains(c.getText().toUpperCase(Locale.ROOT))) {
                // the grammar reads an unquoted CURRENT_DATE in an expression as a name; MySQL (reserved words)
                // as the function: a keyword, never a quoted identifier the server would look up as a column
                pieces.add(new ParsedDdl.Word(c.getText().toUpperCase(Locale.ROOT), gapBefore(c.getStart())));
                return;
            }
            if (name.equals("UdfFunctionCall")) {
                // a built-in the grammar has no keyword for (UUID_TO_BIN, BIN_TO_UUID, ...) reads as a user-defined
                // function: one of the listed built-ins, unquoted, is a call of it; anything else stays refused
                ParseTree fn = c.getChild(0);
                String text = fn.getText();
                if (SIMPLE_NAME.matcher(text).matches() && FUNCTIONS.contains(text.toUpperCase(Locale.ROOT))) {
                    pieces.add(new ParsedDdl.Word(text.toUpperCase(Locale.ROOT), gapBefore(c.getStart())));
                    for (int i = 1; i < c.getChildCount(); i++) walk(c.getChild(i));
                    return;
                }
            }
            switch (name) {
                case "Uid", "SimpleId" -> {
                    addName(uid(c), c.getStart());
                    return;
                }
                case "FullId" -> {
                    qualified(c, false);
                    return;
                }
                case "TableName" -> {
                    qualified((ParserRuleContext) c.getChild(0), true);
                    return;
                }
                case "FullColumnName" -> {
                    columnName(c);
                    return;
                }
                case "TableOptionEngine", "PartitionOptionEngine" -> {
                    if (!engine(c)) return; // not InnoDB: dropped, the target's default engine is used
                }
                default -> check(c, name);
            }
            for (int i = 0; i < c.getChildCount(); i++) {
                ParseTree child = c.getChild(i);
                if (STATEMENTS.containsKey(name) && kind.name().endsWith("_DATABASE") && child instanceof ParserRuleContext u
                        && rule(u).equals("Uid")) {
                    database = uid(u);
                    pieces.add(new ParsedDdl.Qualified(null, database, true, gapBefore(u.getStart())));
                    continue;
                }
                walk(child);
            }
        }

        /** The allow-lists of clauses, options and expressions. */
        private void check(ParserRuleContext c, String name) {
            if (name.startsWith("AlterBy") || name.equals("AlterPartition")) {
                if (!ALTER_CLAUSES.contains(name)) {
                    throw new RefusedDdlException("ALTER TABLE ... " + head(c) + " is not a change the sink runs");
                }
                if (name.equals("AlterByRename")) renamedTo(c);
            } else if (name.startsWith("TableOption")) {
                if (!TABLE_OPTIONS.contains(name)) {
                    throw new RefusedDdlException("the table option " + head(c) + " is not one the sink sets");
                }
                options.add(optionName(c));
            } else if (name.startsWith("PartitionOption")) {
                if (!PARTITION_OPTIONS.contains(name)) {
                    throw new RefusedDdlException("the partition option " + head(c) + " is not one the sink sets");
                }
            } else if (REFUSED_IN_EXPRESSIONS.contains(name)) {
                throw new RefusedDdlException("'" + head(c) + "' in a schema change: no subquery, variable or "
                        + "user-defined function runs from a message");
            } else if (name.equals("ScalarFunctionCall")) {
                String fn = head(c).split(" ")[0];
                if (!FUNCTIONS.contains(fn)) {
                    throw new RefusedDdlException("the function " + fn + " is not one a schema change may call");
                }
            } else if (name.equals("ColumnDeclaration") || name.startsWith("AlterByAddColumn")
                    || name.equals("AlterByChangeColumn") || name.equals("AlterByModifyColumn")) {
                for (int i = 0; i < c.getChildCount(); i++) {
                    if (c.getChild(i) instanceof ParserRuleContext u
                            && (rule(u).equals("Uid") || rule(u).equals("FullColumnName"))) {
                        columns.add(uid(u));
                        break;
                    }
                }
            }
        }

        /** ENGINE=...: kept for InnoDB, else dropped (false). */
        private boolean engine(ParserRuleContext c) {
            for (int i = 0; i < c.getChildCount(); i++) {
                if (c.getChild(i) instanceof ParserRuleContext e && rule(e).equals("EngineName")) {
                    String engine = unquote(e.getText());
                    if (engine.equalsIgnoreCase("InnoDB")) {
                        if (rule(c).startsWith("Table")) options.add("ENGINE");
                        return true;
                    }
                    return false;
                }
            }
            return true;
        }

        private static String optionName(ParserRuleContext c) {
            String n = rule(c).substring("TableOption".length());
            return n.toUpperCase(Locale.ROOT);
        }

        /** ALTER TABLE ... RENAME TO [schema.]name: the new name is a table too. */
        private void renamedTo(ParserRuleContext c) {
            for (int i = 0; i < c.getChildCount(); i++) {
                if (c.getChild(i) instanceof ParserRuleContext p && rule(p).equals("Uid")) {
                    tables.add(new ParsedDdl.TableRef(null, uid(p)));
                }
            }
        }

        /** A FullId: [schema.]name, as a table when {@code table}. */
        private void qualified(ParserRuleContext fullId, boolean table) {
            List<String> parts = parts(fullId);
            String schema = parts.size() == 2 ? parts.get(0) : null;
            String name = parts.get(parts.size() - 1);
            if (schema != null) schemas.add(schema);
            if (table || rule(fullId.getParent()).equals("AlterByRename")) {
                tables.add(new ParsedDdl.TableRef(schema, name));
            }
            pieces.add(new ParsedDdl.Qualified(schema, name, false, gapBefore(fullId.getStart())));
        }

        /** A FullColumnName: column, table.column or schema.table.column. */
        private void columnName(ParserRuleContext c) {
            List<String> parts = parts(c);
            if (parts.size() > 3) throw new RefusedDdlException("a column name of more than three parts");
            boolean gap = gapBefore(c.getStart());
            if (parts.size() == 3) {
                schemas.add(parts.get(0));
                pieces.add(new ParsedDdl.Qualified(parts.get(0), parts.get(1), false, gap));
                pieces.add(new ParsedDdl.Word(".", false));
                pieces.add(new ParsedDdl.Name(parts.get(2), false));
                return;
            }
            for (int i = 0; i < parts.size(); i++) {
                if (i > 0) pieces.add(new ParsedDdl.Word(".", false));
                pieces.add(new ParsedDdl.Name(parts.get(i), i == 0 && gap));
            }
        }

        /** The names of a dotted name (Uid, then DOT_ID or '.' Uid, or DottedId children). */
        private List<String> parts(ParserRuleContext c) {
            List<String> parts = new ArrayList<>(3);
            for (int i = 0; i < c.getChildCount(); i++) {
                ParseTree p = c.getChild(i);
                if (p instanceof TerminalNode n) {
                    String text = n.getText();
                    if (text.equals(".")) continue;
                    if (text.startsWith(".")) {
                        parts.add(checkedName(unquote(text.substring(1))));
                    } else {
                        throw new RefusedDdlException("a name the sink cannot read: " + printable(text));
                    }
                } else if (p instanceof ParserRuleContext r) {
                    String rn = rule(r);
                    if (rn.equals("DottedId")) {
                        parts.addAll(parts(r));
                    } else {
                        parts.add(uid(r));
                    }
                }
            }
            if (parts.isEmpty()) throw new RefusedDdlException("an empty name");
            return parts;
        }

        /** The identifier a Uid (or SimpleId) stands for, unquoted. */
        private String uid(ParserRuleContext c) {
            return checkedName(unquote(c.getText()));
        }

        private void addName(String name, Token start) {
            pieces.add(new ParsedDdl.Name(name, gapBefore(start)));
        }

        private void terminal(TerminalNode n) {
            Token t = n.getSymbol();
            if (t.getType() == Token.EOF) return;
            boolean gap = gapBefore(t);
            String text = t.getText();
            String type = vocabulary.getSymbolicName(t.getType());
            String literal = vocabulary.getLiteralName(t.getType());
            if (literal != null && literal.length() > 2) {
                String word = literal.substring(1, literal.length() - 1);
                if (KEYWORD.matcher(word).matches() || PUNCTUATION.contains(word)) {
                    pieces.add(new ParsedDdl.Word(word, gap));
                    return;
                }
                if (NUMBER.matcher(word).matches()) {
                    pieces.add(new ParsedDdl.Word(word, gap));
                    return;
                }
                throw new RefusedDdlException("'" + printable(word) + "' is not something a schema change contains");
            }
            switch (type == null ? "" : type) {
                case "STRING_LITERAL", "DQUOTA_STRING", "SQUOTA_STRING" -> {
                    if (text.startsWith("`")) {
                        pieces.add(new ParsedDdl.Name(checkedName(unquote(text)), gap));
                    } else {
                        pieces.add(new ParsedDdl.Text(unquote(text), "", gap));
                    }
                }
                case "START_NATIONAL_STRING_LITERAL" -> pieces.add(new ParsedDdl.Text(unquote(text.substring(1)),
                        "N", gap));
                case "STRING_CHARSET_NAME" -> {
                    if (!INTRODUCER.matcher(text).matches()) throw refusedToken(text);
                    pieces.add(new ParsedDdl.Word(text.toLowerCase(Locale.ROOT), gap));
                }
                case "DECIMAL_LITERAL", "REAL_LITERAL" -> {
                    if (!NUMBER.matcher(text).matches()) throw refusedToken(text);
                    pieces.add(new ParsedDdl.Word(text, gap));
                }
                case "HEXADECIMAL_LITERAL" -> {
                    if (!HEX.matcher(text).matches()) throw refusedToken(text);
                    pieces.add(new ParsedDdl.Word(text, gap));
                }
                case "BIT_STRING" -> {
                    if (!BITS.matcher(text).matches()) throw refusedToken(text);
                    pieces.add(new ParsedDdl.Word(text, gap));
                }
                case "FILESIZE_LITERAL" -> {
                    if (!FILE_SIZE.matcher(text).matches()) throw refusedToken(text);
                    pieces.add(new ParsedDdl.Word(text.toUpperCase(Locale.ROOT), gap));
                }
                case "ID", "REVERSE_QUOTE_ID" -> pieces.add(new ParsedDdl.Name(checkedName(unquote(text)), gap));
                case "LOCAL_ID", "GLOBAL_ID" -> throw new RefusedDdlException("a variable (" + printable(text)
                        + ") in a schema change");
                default -> throw refusedToken(text);
            }
        }

        private static RefusedDdlException refusedToken(String text) {
            return new RefusedDdlException("'" + printable(text) + "' is not something a schema change contains");
        }

        /**
         * Whether the message had space or a comment before {@code t}; TiDB feature comments among them become pieces
         * of their own.
         */
        private boolean gapBefore(Token t) {
            List<Token> hidden = tokens.getHiddenTokensToLeft(t.getTokenIndex());
            if (hidden == null || hidden.isEmpty()) return false;
            for (Token h : hidden) {
                String text = h.getText();
                if (!text.startsWith("/*T!")) continue;
                for (Map.Entry<Pattern, Function<Matcher, String>> f : TIDB_FEATURES.entrySet()) {
                    Matcher m = f.getKey().matcher(text);
                    if (m.matches()) {
                        pieces.add(new ParsedDdl.TiDbFeature(f.getValue().apply(m), true));
                        break;
                    }
                }
            }
            return true;
        }
    }

    /** The rule or labelled alternative a context stands for, e.g. {@code AlterByAddColumn}. */
    static String rule(ParserRuleContext c) {
        String n = c.getClass().getSimpleName();
        return n.endsWith("Context") ? n.substring(0, n.length() - "Context".length()) : n;
    }

    /** A name must be one the server can hold: not empty, at most 64 characters, no NUL, no character past U+FFFF. */
    static String checkedName(String name) {
        if (name.isEmpty()) throw new RefusedDdlException("an empty name");
        if (name.length() > 64) throw new RefusedDdlException("a name longer than 64 characters");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == 0 || Character.isSurrogate(c)) {
                throw new RefusedDdlException("a name with a character the server cannot hold in a name");
            }
        }
        return name;
    }

    /**
     * The value of quoted text as the server reads it with backslash escapes: {@code `name`} (backquotes doubled),
     * {@code 'text'} or {@code "text"} (the quote doubled or escaped); anything else is a plain name and must be one.
     */
    static String unquote(String text) {
        if (text.isEmpty()) return text;
        char q = text.charAt(0);
        if (q != '`' && q != '\'' && q != '"') {
            if (!SIMPLE_NAME.matcher(text).matches()) {
                throw new RefusedDdlException("a name the sink cannot read: " + printable(text));
            }
            return text;
        }
        if (text.length() < 2 || text.charAt(text.length() - 1) != q) {
            throw new RefusedDdlException("unterminated quoted text");
        }
        String body = text.substring(1, text.length() - 1);
        StringBuilder sb = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == q && i + 1 < body.length() && body.charAt(i + 1) == q) {
                sb.append(q);
                i++;
            } else if (c == '\\' && q != '`' && i + 1 < body.length()) {
                char e = body.charAt(++i);
                switch (e) {
                    case '0' -> sb.append('\0');
                    case 'b' -> sb.append('\b');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'Z' -> sb.append('\u001a');
                    case '%', '_' -> sb.append('\\').append(e);
                    default -> sb.append(e);
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
