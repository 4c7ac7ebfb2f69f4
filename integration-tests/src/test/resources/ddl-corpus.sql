-- A corpus of schema changes as real migrations run them (Rails, Django, Flyway, gh-ost), grouped per table.
-- Each group names after its colon the tables it leaves behind; each DDL statement is followed by rows written.
-- Statements end with ';' at the end of a line. Written for DdlCorpusEndToEndTest. A line '-- postgresql refuses: why'
-- says that the next statement is refused by the PostgreSQL target with its reason (the dead-letter queue), as
-- documented (docs/migration-mysql-to-postgresql.md); '-- mysql8 refuses: why' the same of the MySQL 8.0 target
-- (docs/sink.md; none today): any other refusal fails the test, and so does a marked one's absence.

-- group rails_users: users
CREATE TABLE users (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, email VARCHAR(255) NOT NULL, name VARCHAR(100) NULL, created_at DATETIME(6) NOT NULL, updated_at DATETIME(6) NOT NULL);
INSERT INTO users (id, email, name, created_at, updated_at) VALUES (1, 'ann@example.com', 'Ann', '2024-01-01 10:00:00', '2024-01-01 10:00:00'), (2, 'bob@example.com', 'Bob', '2024-01-02 10:00:00', '2024-01-02 10:00:00'), (3, 'cy@example.com', NULL, '2024-01-03 10:00:00', '2024-01-03 10:00:00');
CREATE UNIQUE INDEX index_users_on_email ON users (email);
INSERT INTO users (id, email, name, created_at, updated_at) VALUES (4, 'dee@example.com', 'Dee', '2024-01-04 10:00:00', '2024-01-04 10:00:00');
UPDATE users SET name = 'Cy' WHERE id = 3;
ALTER TABLE users ADD COLUMN admin TINYINT(1) NOT NULL DEFAULT 0;
UPDATE users SET admin = 1 WHERE id = 1;
INSERT INTO users (id, email, name, created_at, updated_at, admin) VALUES (5, 'eve@example.com', 'Eve', '2024-01-05 10:00:00', '2024-01-05 10:00:00', 0);
ALTER TABLE users ADD COLUMN last_sign_in_at DATETIME NULL, ADD COLUMN sign_in_count INT NOT NULL DEFAULT 0;
UPDATE users SET sign_in_count = sign_in_count + 3, last_sign_in_at = '2024-02-01 08:00:00' WHERE id IN (1, 2);
ALTER TABLE users MODIFY id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT;
INSERT INTO users (id, email, name, created_at, updated_at) VALUES (4294967296, 'big@example.com', 'Big', '2024-03-01 00:00:00', '2024-03-01 00:00:00');
DELETE FROM users WHERE id = 2;
ALTER TABLE users ADD INDEX index_users_on_last_sign_in_at (last_sign_in_at);
UPDATE users SET last_sign_in_at = '2024-03-02 09:30:00' WHERE id = 4294967296;
ALTER TABLE users RENAME COLUMN name TO full_name;
UPDATE users SET full_name = 'Ann Smith' WHERE id = 1;
INSERT INTO users (id, email, full_name, created_at, updated_at) VALUES (6, 'fay@example.com', 'Fay', '2024-03-03 00:00:00', '2024-03-03 00:00:00');
ALTER TABLE users MODIFY full_name VARCHAR(200) NULL;
UPDATE users SET full_name = CONCAT(full_name, ' (verified)') WHERE admin = 1;
ALTER TABLE users ADD COLUMN locale VARCHAR(10) NOT NULL DEFAULT 'en';
INSERT INTO users (id, email, full_name, created_at, updated_at, locale) VALUES (7, 'gus@example.com', 'Gus', '2024-03-04 00:00:00', '2024-03-04 00:00:00', 'de');
ALTER TABLE users ALTER COLUMN locale SET DEFAULT 'en-US';
INSERT INTO users (id, email, full_name, created_at, updated_at) VALUES (8, 'hal@example.com', 'Hal', '2024-03-05 00:00:00', '2024-03-05 00:00:00');
ALTER TABLE users DROP INDEX index_users_on_last_sign_in_at;
DELETE FROM users WHERE id = 5;
ALTER TABLE users DROP COLUMN sign_in_count;
UPDATE users SET last_sign_in_at = NULL WHERE id = 1;
ALTER TABLE users MODIFY email VARCHAR(320) NOT NULL;
INSERT INTO users (id, email, full_name, created_at, updated_at) VALUES (9, 'a-very-long-address-for-the-widened-column@subdomain.example.com', 'Ivy', '2024-03-06 00:00:00', '2024-03-06 00:00:00');
ALTER TABLE users ALTER COLUMN locale DROP DEFAULT;
INSERT INTO users (id, email, full_name, created_at, updated_at, locale) VALUES (10, 'jo@example.com', 'Jo', '2024-03-07 00:00:00', '2024-03-07 00:00:00', 'fr');
UPDATE users SET updated_at = '2024-04-01 00:00:00.123456' WHERE id < 5;

-- group rails_meta: schema_migrations ar_internal_metadata
CREATE TABLE schema_migrations (version VARCHAR(255) NOT NULL PRIMARY KEY);
INSERT INTO schema_migrations VALUES ('20240101000000'), ('20240102000000');
CREATE TABLE ar_internal_metadata (`key` VARCHAR(255) NOT NULL PRIMARY KEY, value VARCHAR(255) NULL, created_at DATETIME(6) NOT NULL, updated_at DATETIME(6) NOT NULL);
INSERT INTO ar_internal_metadata VALUES ('environment', 'production', '2024-01-01 00:00:00', '2024-01-01 00:00:00');
INSERT INTO schema_migrations VALUES ('20240103000000');
ALTER TABLE ar_internal_metadata MODIFY value VARCHAR(1024) NULL;
INSERT INTO ar_internal_metadata VALUES ('schema_sha1', 'abc123', '2024-01-02 00:00:00', '2024-01-02 00:00:00');
UPDATE ar_internal_metadata SET value = 'staging', updated_at = '2024-02-01 00:00:00' WHERE `key` = 'environment';
ALTER TABLE schema_migrations CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
INSERT INTO schema_migrations VALUES ('20240104000000'), ('20240105000000');
DELETE FROM schema_migrations WHERE version = '20240102000000';

-- group django: django_content_type auth_user auth_group auth_user_groups django_migrations
CREATE TABLE django_migrations (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, app VARCHAR(255) NOT NULL, name VARCHAR(255) NOT NULL, applied DATETIME(6) NOT NULL);
INSERT INTO django_migrations (id, app, name, applied) VALUES (1, 'contenttypes', '0001_initial', '2024-01-01 00:00:00'), (2, 'auth', '0001_initial', '2024-01-01 00:00:01');
CREATE TABLE django_content_type (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, app_label VARCHAR(100) NOT NULL, model VARCHAR(100) NOT NULL);
INSERT INTO django_content_type VALUES (1, 'user', 'auth', 'user'), (2, 'group', 'auth', 'group'), (3, 'session', 'sessions', 'session');
ALTER TABLE django_content_type ADD CONSTRAINT django_content_type_app_label_model_76bd3d3b_uniq UNIQUE (app_label, model);
INSERT INTO django_content_type VALUES (4, 'permission', 'auth', 'permission');
ALTER TABLE django_content_type MODIFY name VARCHAR(100) NULL;
UPDATE django_content_type SET name = NULL WHERE id = 3;
ALTER TABLE django_content_type DROP COLUMN name;
INSERT INTO django_content_type VALUES (5, 'admin', 'logentry');
INSERT INTO django_migrations (id, app, name, applied) VALUES (3, 'contenttypes', '0002_remove_content_type_name', '2024-01-01 00:00:02');
CREATE TABLE auth_group (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(80) NOT NULL UNIQUE);
INSERT INTO auth_group VALUES (1, 'editors'), (2, 'viewers');
ALTER TABLE auth_group MODIFY name VARCHAR(150) NOT NULL;
INSERT INTO auth_group VALUES (3, 'a group name longer than eighty characters, which the widened column now accepts without complaint');
CREATE TABLE auth_user (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, password VARCHAR(128) NOT NULL, last_login DATETIME(6) NULL, is_superuser TINYINT(1) NOT NULL, username VARCHAR(30) NOT NULL UNIQUE, email VARCHAR(75) NOT NULL, is_active TINYINT(1) NOT NULL, date_joined DATETIME(6) NOT NULL);
INSERT INTO auth_user VALUES (1, 'pbkdf2$1', NULL, 1, 'root', 'root@example.com', 1, '2024-01-01 00:00:00'), (2, 'pbkdf2$2', '2024-01-05 12:00:00', 0, 'ann', 'ann@example.com', 1, '2024-01-02 00:00:00');
ALTER TABLE auth_user MODIFY email VARCHAR(254) NOT NULL;
INSERT INTO auth_user VALUES (3, 'pbkdf2$3', NULL, 0, 'bob', 'bob@example.com', 1, '2024-01-03 00:00:00');
ALTER TABLE auth_user MODIFY username VARCHAR(150) NOT NULL;
INSERT INTO auth_user VALUES (4, 'pbkdf2$4', NULL, 0, 'a_username_that_is_longer_than_thirty_characters', 'long@example.com', 0, '2024-01-04 00:00:00');
ALTER TABLE auth_user ADD COLUMN first_name VARCHAR(150) NOT NULL DEFAULT '', ADD COLUMN last_name VARCHAR(150) NOT NULL DEFAULT '';
UPDATE auth_user SET first_name = 'Ann', last_name = 'Smith' WHERE id = 2;
ALTER TABLE auth_user ALTER COLUMN first_name DROP DEFAULT;
INSERT INTO auth_user (id, password, is_superuser, username, email, is_active, date_joined, first_name) VALUES (5, 'pbkdf2$5', 0, 'cy', 'cy@example.com', 1, '2024-01-05 00:00:00', 'Cy');
CREATE TABLE auth_user_groups (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id INT NOT NULL, group_id INT NOT NULL);
INSERT INTO auth_user_groups VALUES (1, 1, 1), (2, 2, 2);
ALTER TABLE auth_user_groups ADD CONSTRAINT auth_user_groups_user_id_group_id_94350c0c_uniq UNIQUE (user_id, group_id);
INSERT INTO auth_user_groups VALUES (3, 2, 1);
ALTER TABLE auth_user_groups ADD CONSTRAINT auth_user_groups_group_id_97559544_fk_auth_group_id FOREIGN KEY (group_id) REFERENCES auth_group (id);
INSERT INTO auth_user_groups VALUES (4, 3, 3);
ALTER TABLE auth_user_groups ADD CONSTRAINT auth_user_groups_user_id_6a12ed8b_fk_auth_user_id FOREIGN KEY (user_id) REFERENCES auth_user (id);
DELETE FROM auth_user_groups WHERE id = 1;
INSERT INTO auth_user_groups VALUES (5, 4, 2);
CREATE INDEX auth_user_last_login_idx ON auth_user (last_login);
UPDATE auth_user SET last_login = '2024-02-02 02:02:02' WHERE id = 3;
INSERT INTO django_migrations (id, app, name, applied) VALUES (4, 'auth', '0012_alter_user_first_name_max_length', '2024-01-01 00:00:03');

-- group flyway: flyway_schema_history
CREATE TABLE flyway_schema_history (installed_rank INT NOT NULL, version VARCHAR(50) NULL, description VARCHAR(200) NOT NULL, type VARCHAR(20) NOT NULL, script VARCHAR(1000) NOT NULL, checksum INT NULL, installed_by VARCHAR(100) NOT NULL, installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, execution_time INT NOT NULL, success TINYINT(1) NOT NULL, CONSTRAINT flyway_schema_history_pk PRIMARY KEY (installed_rank)) ENGINE=InnoDB;
INSERT INTO flyway_schema_history VALUES (1, '1', 'init', 'SQL', 'V1__init.sql', 12345, 'flyway', '2024-01-01 00:00:00', 42, 1);
CREATE INDEX flyway_schema_history_s_idx ON flyway_schema_history (success);
INSERT INTO flyway_schema_history VALUES (2, '1.1', 'add orders', 'SQL', 'V1_1__add_orders.sql', -99887766, 'flyway', '2024-01-02 00:00:00', 17, 1);
INSERT INTO flyway_schema_history VALUES (3, NULL, 'views', 'SQL', 'R__views.sql', 555, 'flyway', '2024-01-03 00:00:00', 3, 0);
ALTER TABLE flyway_schema_history MODIFY checksum BIGINT NULL;
UPDATE flyway_schema_history SET checksum = 9876543210 WHERE installed_rank = 3;
ALTER TABLE flyway_schema_history MODIFY description VARCHAR(500) NOT NULL;
INSERT INTO flyway_schema_history VALUES (4, '2', 'a much longer description of a migration that adds the invoices module with its tables, keys and the default values it needs', 'SQL', 'V2__invoices.sql', 1, 'flyway', '2024-01-04 00:00:00', 1200, 1);
DELETE FROM flyway_schema_history WHERE success = 0;

-- group shop: customers orders order_items
CREATE TABLE customers (id INT NOT NULL PRIMARY KEY, name VARCHAR(80) NOT NULL, country CHAR(2) NOT NULL DEFAULT 'US');
INSERT INTO customers VALUES (1, 'Acme', 'US'), (2, 'Globex', 'DE'), (3, 'Initech', 'US');
CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, customer_id INT NOT NULL, total DECIMAL(10,2) NOT NULL, placed_at DATETIME NOT NULL, CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id));
INSERT INTO orders VALUES (1, 1, 10.00, '2024-01-01 10:00:00'), (2, 1, 25.50, '2024-01-02 11:00:00'), (3, 2, 99.99, '2024-01-03 12:00:00');
CREATE TABLE order_items (order_id INT NOT NULL, line INT NOT NULL, sku VARCHAR(20) NOT NULL, qty INT NOT NULL, PRIMARY KEY (order_id, line), CONSTRAINT fk_items_order FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE CASCADE);
INSERT INTO order_items VALUES (1, 1, 'A-1', 2), (1, 2, 'B-7', 1), (2, 1, 'A-1', 5), (3, 1, 'C-3', 1), (3, 2, 'C-4', 2);
DELETE FROM orders WHERE id = 2;
ALTER TABLE orders ADD COLUMN status VARCHAR(16) NOT NULL DEFAULT 'placed';
UPDATE orders SET status = 'shipped' WHERE id = 1;
INSERT INTO orders VALUES (4, 3, 5.00, '2024-01-04 09:00:00', 'placed');
ALTER TABLE orders MODIFY total DECIMAL(14,4) NOT NULL;
INSERT INTO orders VALUES (5, 2, 123456789.1234, '2024-01-05 09:00:00', 'placed');
INSERT INTO order_items VALUES (5, 1, 'Z-9', 1);
ALTER TABLE order_items ADD CONSTRAINT chk_qty_positive CHECK (qty > 0);
INSERT INTO order_items VALUES (4, 1, 'A-2', 3);
UPDATE order_items SET qty = qty + 1 WHERE order_id = 1;
ALTER TABLE orders ADD INDEX idx_orders_status_placed (status, placed_at);
UPDATE orders SET status = 'cancelled' WHERE id = 4;
ALTER TABLE order_items MODIFY sku VARCHAR(64) NOT NULL;
INSERT INTO order_items VALUES (5, 2, 'SKU-WITH-A-LONGER-CODE-0001', 1);
ALTER TABLE order_items ADD COLUMN unit_price DECIMAL(10,2) NULL AFTER qty;
UPDATE order_items SET unit_price = 9.95 WHERE sku LIKE 'A-%';
ALTER TABLE order_items DROP CONSTRAINT chk_qty_positive;
INSERT INTO order_items VALUES (4, 2, 'RET-1', 0, 0.00);
ALTER TABLE orders DROP FOREIGN KEY fk_orders_customer;
INSERT INTO orders VALUES (6, 1, 1.00, '2024-01-06 00:00:00', 'placed');
ALTER TABLE orders ADD CONSTRAINT fk_orders_customer_v2 FOREIGN KEY (customer_id) REFERENCES customers (id) ON UPDATE CASCADE;
UPDATE customers SET name = 'Acme Corp' WHERE id = 1;
ALTER TABLE customers CHANGE country country_code CHAR(2) NOT NULL DEFAULT 'US';
INSERT INTO customers VALUES (4, 'Umbrella', 'GB');
DELETE FROM orders WHERE id = 3;
ALTER TABLE customers ADD COLUMN email VARCHAR(120) NULL, ADD UNIQUE KEY uq_customers_email (email);
UPDATE customers SET email = CONCAT('billing@', LOWER(name), '.example') WHERE id IN (2, 3);
INSERT INTO customers VALUES (5, 'Hooli', 'US', 'ap@hooli.example');

-- group catalog: products
CREATE TABLE products (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, sku VARCHAR(40) NOT NULL, title VARCHAR(200) NOT NULL, description TEXT NULL, price DECIMAL(8,2) NOT NULL DEFAULT 0.00) DEFAULT CHARSET=latin1;
INSERT INTO products (id, sku, title, description, price) VALUES (1, 'P-1', 'Widget', 'A widget', 9.99), (2, 'P-2', 'Gadget', NULL, 19.99), (3, 'P-3', 'Gizmo', 'Small', 4.50);
ALTER TABLE products CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
INSERT INTO products (id, sku, title, description, price) VALUES (4, 'P-4', 'Übergröße Jacke', 'Größe XXL – wärmend ☃', 129.00);
ALTER TABLE products ADD INDEX idx_products_title (title(32));
UPDATE products SET title = 'Widget Pro' WHERE id = 1;
ALTER TABLE products ADD UNIQUE INDEX uq_products_sku (sku);
INSERT INTO products (id, sku, title, price) VALUES (5, 'P-5', 'Sprocket 😀', 2.25);
ALTER TABLE products MODIFY title VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;
UPDATE products SET title = 'gizmo' WHERE id = 3;
ALTER TABLE products MODIFY description MEDIUMTEXT NULL;
UPDATE products SET description = REPEAT('long text ', 200) WHERE id = 2;
CREATE INDEX idx_products_description ON products (description(64));
INSERT INTO products (id, sku, title, description, price) VALUES (6, 'P-6', 'Cog', 'Cog with a description', 1.10);
ALTER TABLE products MODIFY price DECIMAL(12,4) NOT NULL DEFAULT 0.0000;
INSERT INTO products (id, sku, title, price) VALUES (7, 'P-7', 'Free sample', DEFAULT);
ALTER TABLE products DROP INDEX idx_products_title;
DELETE FROM products WHERE id = 6;
ALTER TABLE products ADD COLUMN slug VARCHAR(200) CHARACTER SET ascii COLLATE ascii_general_ci NULL;
UPDATE products SET slug = LOWER(sku);
ALTER TABLE products MODIFY sku VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL;
INSERT INTO products (id, sku, title, price, slug) VALUES (8, 'p-8', 'Lowercase sku', 3.00, 'p-8');
ALTER TABLE products ADD FULLTEXT INDEX ft_products_title_description (description);
INSERT INTO products (id, sku, title, price) VALUES (9, 'P-9', 'Searchable', 5.00);
ALTER TABLE products DROP INDEX ft_products_title_description;
UPDATE products SET price = price * 1.1 WHERE id < 4;

-- group events_range: event_log
CREATE TABLE event_log (id BIGINT NOT NULL, happened DATE NOT NULL, kind VARCHAR(20) NOT NULL, payload VARCHAR(200) NULL, PRIMARY KEY (id, happened)) PARTITION BY RANGE COLUMNS (happened) (PARTITION p2023 VALUES LESS THAN ('2024-01-01'), PARTITION p2024 VALUES LESS THAN ('2025-01-01'), PARTITION pmax VALUES LESS THAN (MAXVALUE));
INSERT INTO event_log VALUES (1, '2023-05-01', 'login', NULL), (2, '2023-12-31', 'logout', 'x'), (3, '2024-06-01', 'login', 'y'), (4, '2025-02-02', 'login', NULL);
ALTER TABLE event_log ADD COLUMN source_ip VARCHAR(45) NULL;
UPDATE event_log SET source_ip = '10.0.0.1' WHERE id = 3;
INSERT INTO event_log VALUES (5, '2024-07-07', 'purchase', 'z', '192.168.1.2');
ALTER TABLE event_log TRUNCATE PARTITION p2023;
INSERT INTO event_log VALUES (6, '2023-03-03', 'late', NULL, NULL);
ALTER TABLE event_log DROP PARTITION p2023;
INSERT INTO event_log VALUES (7, '2023-11-11', 'older', NULL, NULL);
ALTER TABLE event_log ADD INDEX idx_event_log_kind (kind);
DELETE FROM event_log WHERE kind = 'logout';
ALTER TABLE event_log MODIFY payload VARCHAR(500) NULL;
INSERT INTO event_log VALUES (8, '2024-08-08', 'export', REPEAT('p', 400), NULL);

-- group events_range_int: counters
CREATE TABLE counters (id INT NOT NULL PRIMARY KEY, value BIGINT NOT NULL DEFAULT 0) PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (100), PARTITION p1 VALUES LESS THAN (200), PARTITION p2 VALUES LESS THAN (MAXVALUE));
INSERT INTO counters VALUES (1, 10), (150, 20), (250, 30), (99, 5);
ALTER TABLE counters DROP PARTITION p1;
INSERT INTO counters VALUES (151, 1);
ALTER TABLE counters TRUNCATE PARTITION p0;
INSERT INTO counters VALUES (2, 2);
UPDATE counters SET value = value + 100 WHERE id >= 150;
ALTER TABLE counters ADD COLUMN note VARCHAR(30) NULL;
INSERT INTO counters VALUES (300, 3, 'three hundred');

-- group regions_list: stores
CREATE TABLE stores (id INT NOT NULL, region_id INT NOT NULL, name VARCHAR(60) NOT NULL, PRIMARY KEY (id, region_id)) PARTITION BY LIST (region_id) (PARTITION p_east VALUES IN (1, 2, 3), PARTITION p_west VALUES IN (4, 5, 6));
INSERT INTO stores VALUES (1, 1, 'Boston'), (2, 2, 'New York'), (3, 4, 'Seattle'), (4, 5, 'Portland');
ALTER TABLE stores ADD PARTITION (PARTITION p_central VALUES IN (7, 8, 9));
INSERT INTO stores VALUES (5, 7, 'Chicago'), (6, 8, 'Denver');
ALTER TABLE stores TRUNCATE PARTITION p_west;
INSERT INTO stores VALUES (7, 6, 'San Diego');
ALTER TABLE stores ADD COLUMN opened DATE NULL;
UPDATE stores SET opened = '2020-02-02' WHERE region_id = 1;
ALTER TABLE stores DROP PARTITION p_central;
INSERT INTO stores VALUES (8, 3, 'Philadelphia', '2021-01-01');
ALTER TABLE stores MODIFY name VARCHAR(120) NOT NULL;
UPDATE stores SET name = 'Philadelphia Center City' WHERE id = 8;

-- group sessions_hash: web_sessions
CREATE TABLE web_sessions (id BIGINT NOT NULL PRIMARY KEY, user_id INT NULL, data TEXT NULL, expires_at DATETIME NOT NULL) PARTITION BY HASH (id) PARTITIONS 4;
INSERT INTO web_sessions VALUES (1, 1, 'a', '2024-01-01 00:00:00'), (2, NULL, 'b', '2024-01-01 00:00:00'), (3, 2, NULL, '2024-01-02 00:00:00'), (4, 3, 'd', '2024-01-03 00:00:00'), (5, 1, 'e', '2024-01-04 00:00:00');
ALTER TABLE web_sessions ADD INDEX idx_web_sessions_expires_at (expires_at);
DELETE FROM web_sessions WHERE expires_at < '2024-01-02 00:00:00';
ALTER TABLE web_sessions MODIFY data MEDIUMTEXT NULL;
INSERT INTO web_sessions VALUES (6, 4, REPEAT('s', 1000), '2024-02-01 00:00:00');
ALTER TABLE web_sessions ADD COLUMN ip VARBINARY(16) NULL;
UPDATE web_sessions SET ip = UNHEX('7F000001') WHERE id = 3;
TRUNCATE TABLE web_sessions;
INSERT INTO web_sessions VALUES (7, 5, 'fresh', '2024-03-01 00:00:00', NULL), (8, NULL, NULL, '2024-03-01 00:00:00', UNHEX('0A000001'));

-- group ghost_accounts: accounts
CREATE TABLE accounts (id INT NOT NULL PRIMARY KEY, owner VARCHAR(60) NOT NULL, balance DECIMAL(12,2) NOT NULL DEFAULT 0.00);
INSERT INTO accounts VALUES (1, 'ann', 100.00), (2, 'bob', 5.50), (3, 'cy', 0.00);
CREATE TABLE _accounts_ghc (id BIGINT UNSIGNED AUTO_INCREMENT, last_update TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, hint VARCHAR(64) CHARSET ascii NOT NULL, value VARCHAR(4096) CHARSET ascii NOT NULL, PRIMARY KEY (id), UNIQUE KEY hint_uidx (hint)) AUTO_INCREMENT=256;
INSERT INTO _accounts_ghc (id, last_update, hint, value) VALUES (256, '2024-01-01 00:00:00', 'state', 'GhostTableMigrated');
CREATE TABLE _accounts_gho LIKE accounts;
ALTER TABLE _accounts_gho ADD COLUMN currency CHAR(3) NOT NULL DEFAULT 'USD', MODIFY id BIGINT UNSIGNED NOT NULL;
INSERT INTO accounts VALUES (4, 'dee', 42.00);
INSERT INTO _accounts_gho (id, owner, balance) SELECT id, owner, balance FROM accounts;
UPDATE accounts SET balance = 7.25 WHERE id = 2;
UPDATE _accounts_gho SET balance = 7.25 WHERE id = 2;
RENAME TABLE accounts TO _accounts_del, _accounts_gho TO accounts;
INSERT INTO accounts VALUES (5, 'eve', 1.00, 'EUR');
DROP TABLE IF EXISTS _accounts_del;
DROP TABLE IF EXISTS _accounts_ghc;
UPDATE accounts SET currency = 'GBP' WHERE id = 3;
CREATE TABLE _accounts_gho LIKE accounts;
ALTER TABLE _accounts_gho ADD UNIQUE KEY uq_accounts_owner (owner);
INSERT INTO _accounts_gho SELECT * FROM accounts;
RENAME TABLE accounts TO _accounts_del, _accounts_gho TO accounts;
DROP TABLE _accounts_del;
INSERT INTO accounts VALUES (6, 'fay', 60.00, 'USD');
DELETE FROM accounts WHERE id = 1;

-- group ghost_ledger: ledger
CREATE TABLE ledger (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, account_id INT NOT NULL, amount DECIMAL(12,2) NOT NULL, memo VARCHAR(100) NULL);
INSERT INTO ledger VALUES (1, 1, 10.00, 'open'), (2, 1, -2.50, NULL), (3, 2, 99.00, 'deposit');
CREATE TABLE _ledger_gho (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, account_id INT NOT NULL, amount DECIMAL(14,2) NOT NULL, memo VARCHAR(255) NULL, KEY idx_ledger_account (account_id));
INSERT INTO _ledger_gho SELECT id, account_id, amount, memo FROM ledger;
INSERT INTO ledger VALUES (4, 3, 1.00, 'late row');
INSERT INTO _ledger_gho VALUES (4, 3, 1.00, 'late row');
RENAME TABLE ledger TO _ledger_del, _ledger_gho TO ledger;
DROP TABLE _ledger_del;
INSERT INTO ledger VALUES (5, 3, 123456789012.00, 'big amount');
ALTER TABLE ledger RENAME INDEX idx_ledger_account TO ix_ledger_account_id;
UPDATE ledger SET memo = 'renamed index' WHERE id = 5;

-- group invoices: invoices
CREATE TABLE invoices (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, number VARCHAR(20) NOT NULL, issued_on DATE NOT NULL DEFAULT (CURRENT_DATE), due_on DATE NOT NULL DEFAULT (CURRENT_DATE + INTERVAL 30 DAY), amount DECIMAL(10,2) NOT NULL);
INSERT INTO invoices VALUES (1, 'INV-1', '2024-01-01', '2024-01-31', 100.00), (2, 'INV-2', '2024-01-15', '2024-02-14', 250.00);
ALTER TABLE invoices ADD COLUMN public_id VARCHAR(36) NOT NULL DEFAULT (UUID());
UPDATE invoices SET public_id = CONCAT('00000000-0000-0000-0000-00000000000', id);
INSERT INTO invoices VALUES (3, 'INV-3', '2024-02-01', '2024-03-02', 75.00, '11111111-2222-3333-4444-555555555555');
ALTER TABLE invoices ADD COLUMN created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP;
UPDATE invoices SET created_at = '2024-01-01 00:00:00';
INSERT INTO invoices VALUES (4, 'INV-4', '2024-02-02', '2024-03-03', 1.00, '44444444-2222-3333-4444-555555555555', '2024-02-02 12:00:00');
ALTER TABLE invoices ADD COLUMN updated_at TIMESTAMP NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP;
UPDATE invoices SET amount = 101.00, updated_at = '2024-03-01 00:00:00' WHERE id = 1;
ALTER TABLE invoices ALTER COLUMN due_on SET DEFAULT (CURRENT_DATE + INTERVAL 14 DAY);
INSERT INTO invoices (id, number, issued_on, due_on, amount, public_id, created_at) VALUES (5, 'INV-5', '2024-03-01', '2024-03-15', 9.00, '55555555-2222-3333-4444-555555555555', '2024-03-01 00:00:00');
ALTER TABLE invoices ADD UNIQUE KEY uq_invoices_number (number);
INSERT INTO invoices (id, number, issued_on, due_on, amount, public_id, created_at) VALUES (6, 'INV-6', '2024-03-02', '2024-03-16', 19.00, '66666666-2222-3333-4444-555555555555', '2024-03-02 00:00:00');
ALTER TABLE invoices ADD UNIQUE KEY uq_invoices_public_id (public_id);
DELETE FROM invoices WHERE id = 2;
ALTER TABLE invoices MODIFY amount DECIMAL(12,2) NOT NULL DEFAULT 0.00;
INSERT INTO invoices (id, number, issued_on, due_on, public_id, created_at) VALUES (7, 'INV-7', '2024-03-03', '2024-03-17', '77777777-2222-3333-4444-555555555555', '2024-03-03 00:00:00');
ALTER TABLE invoices ADD COLUMN paid TINYINT(1) NOT NULL DEFAULT 0 AFTER amount;
UPDATE invoices SET paid = 1 WHERE id IN (1, 3);

-- group audit: audit_log audit_log_2023 audit_entries
CREATE TABLE audit_log (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, actor VARCHAR(40) NOT NULL, action VARCHAR(40) NOT NULL, at DATETIME(3) NOT NULL, KEY idx_audit_at (at));
INSERT INTO audit_log VALUES (1, 'ann', 'login', '2023-12-30 10:00:00.001'), (2, 'bob', 'delete', '2023-12-31 11:00:00.002');
CREATE TABLE audit_log_2023 LIKE audit_log;
INSERT INTO audit_log_2023 SELECT * FROM audit_log;
TRUNCATE TABLE audit_log;
INSERT INTO audit_log VALUES (3, 'cy', 'login', '2024-01-01 00:00:00.003');
ALTER TABLE audit_log ADD COLUMN detail VARCHAR(500) NULL;
INSERT INTO audit_log VALUES (4, 'dee', 'update', '2024-01-02 00:00:00.004', '{"field":"email"}');
ALTER TABLE audit_log_2023 COMMENT = 'archived rows of 2023';
UPDATE audit_log_2023 SET action = 'remove' WHERE id = 2;
RENAME TABLE audit_log TO audit_entries;
INSERT INTO audit_entries VALUES (5, 'eve', 'login', '2024-01-03 00:00:00.005', NULL);
ALTER TABLE audit_entries MODIFY at DATETIME(6) NOT NULL;
INSERT INTO audit_entries VALUES (6, 'fay', 'logout', '2024-01-03 00:00:00.123456', NULL);
CREATE TABLE audit_log (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, actor VARCHAR(40) NOT NULL, at DATETIME NOT NULL);
INSERT INTO audit_log VALUES (1, 'sys', '2024-05-05 05:05:05');
DROP TABLE audit_log;
CREATE TABLE audit_log (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, actor VARCHAR(40) NOT NULL, note TEXT NULL);
INSERT INTO audit_log VALUES (1, 'new', 'recreated with another shape');
ALTER TABLE audit_entries DROP INDEX idx_audit_at;
DELETE FROM audit_entries WHERE id = 3;
TRUNCATE audit_log_2023;
INSERT INTO audit_log_2023 VALUES (9, 'x', 'y', '2023-06-06 06:06:06.600');

-- group metrics_generated: measurements
CREATE TABLE measurements (id INT NOT NULL PRIMARY KEY, width INT NOT NULL, height INT NOT NULL, area INT AS (width * height) STORED, label VARCHAR(30) NULL);
INSERT INTO measurements (id, width, height, label) VALUES (1, 2, 3, 'small'), (2, 10, 10, 'square'), (3, 7, 1, NULL);
ALTER TABLE measurements ADD COLUMN perimeter INT AS (2 * (width + height)) VIRTUAL;
UPDATE measurements SET width = 4 WHERE id = 1;
INSERT INTO measurements (id, width, height, label) VALUES (4, 5, 6, 'rect');
ALTER TABLE measurements ADD COLUMN label_upper VARCHAR(30) GENERATED ALWAYS AS (UPPER(label)) STORED;
INSERT INTO measurements (id, width, height, label) VALUES (5, 1, 1, 'unit');
ALTER TABLE measurements ADD INDEX idx_measurements_area (area);
UPDATE measurements SET height = height + 1 WHERE area < 20;
ALTER TABLE measurements DROP COLUMN perimeter;
INSERT INTO measurements (id, width, height, label) VALUES (6, 3, 3, NULL);
ALTER TABLE measurements ADD COLUMN ratio DECIMAL(10,4) AS (ROUND(width / height, 4)) STORED;
DELETE FROM measurements WHERE id = 3;
ALTER TABLE measurements ADD COLUMN label_len INT AS (LENGTH(label)) VIRTUAL;
INSERT INTO measurements (id, width, height, label) VALUES (7, 8, 2, 'wide');

-- group payments_checks: payments
CREATE TABLE payments (id INT NOT NULL PRIMARY KEY, amount DECIMAL(10,2) NOT NULL, currency CHAR(3) NOT NULL, method VARCHAR(10) NOT NULL, CONSTRAINT chk_amount_nonneg CHECK (amount >= 0));
INSERT INTO payments VALUES (1, 10.00, 'USD', 'card'), (2, 0.00, 'EUR', 'cash');
ALTER TABLE payments ADD CONSTRAINT chk_method CHECK (method IN ('card', 'cash', 'wire'));
INSERT INTO payments VALUES (3, 99.00, 'USD', 'wire');
ALTER TABLE payments ADD CONSTRAINT chk_currency_upper CHECK (currency = UPPER(currency));
UPDATE payments SET amount = 11.00 WHERE id = 1;
ALTER TABLE payments DROP CONSTRAINT chk_method;
INSERT INTO payments VALUES (4, 5.00, 'GBP', 'paypal');
ALTER TABLE payments ADD COLUMN fee DECIMAL(10,2) NOT NULL DEFAULT 0.00 CHECK (fee >= 0);
UPDATE payments SET fee = 0.30 WHERE method = 'card';
ALTER TABLE payments ADD CONSTRAINT chk_fee_le_amount CHECK (fee <= amount + 1);
INSERT INTO payments VALUES (5, 20.00, 'USD', 'card', 0.60);
ALTER TABLE payments DROP CONSTRAINT chk_currency_upper;
DELETE FROM payments WHERE id = 2;
ALTER TABLE payments MODIFY method VARCHAR(20) NOT NULL;
INSERT INTO payments VALUES (6, 1.00, 'JPY', 'bank_transfer', 0.00);

-- group taggings_keys: tags taggings
CREATE TABLE tags (id INT NOT NULL, name VARCHAR(50) NOT NULL);
INSERT INTO tags VALUES (1, 'red'), (2, 'green'), (3, 'blue');
ALTER TABLE tags ADD PRIMARY KEY (id);
UPDATE tags SET name = 'crimson' WHERE id = 1;
ALTER TABLE tags ADD UNIQUE KEY uq_tags_name (name);
INSERT INTO tags VALUES (4, 'yellow');
CREATE TABLE taggings (tag_id INT NOT NULL, taggable_type VARCHAR(40) NOT NULL, taggable_id INT NOT NULL, created_at DATETIME NULL);
INSERT INTO taggings VALUES (1, 'Product', 1, NULL), (2, 'Product', 1, NULL), (1, 'User', 3, '2024-01-01 00:00:00');
ALTER TABLE taggings ADD PRIMARY KEY (tag_id, taggable_type, taggable_id);
DELETE FROM taggings WHERE tag_id = 2;
ALTER TABLE taggings ADD COLUMN id BIGINT NOT NULL DEFAULT 0 FIRST;
UPDATE taggings SET id = tag_id * 1000 + taggable_id;
ALTER TABLE taggings DROP PRIMARY KEY, ADD PRIMARY KEY (id);
INSERT INTO taggings VALUES (5001, 5, 'Order', 1, NULL);
ALTER TABLE taggings ADD UNIQUE INDEX uq_taggings_target (tag_id, taggable_type, taggable_id);
INSERT INTO taggings VALUES (4002, 4, 'Product', 2, '2024-02-02 00:00:00');
ALTER TABLE taggings MODIFY id BIGINT NOT NULL AUTO_INCREMENT;
INSERT INTO taggings (tag_id, taggable_type, taggable_id) VALUES (3, 'User', 9);
ALTER TABLE tags DROP INDEX uq_tags_name;
INSERT INTO tags VALUES (5, 'red');
ALTER TABLE tags MODIFY id INT NOT NULL AUTO_INCREMENT;
INSERT INTO tags (name) VALUES ('purple');
ALTER TABLE taggings DROP INDEX uq_taggings_target;
INSERT INTO taggings (tag_id, taggable_type, taggable_id) VALUES (3, 'User', 9);
ALTER TABLE tags ADD COLUMN taggings_count INT NOT NULL DEFAULT 0;
UPDATE tags SET taggings_count = 2 WHERE id = 1;

-- group legacy_nopk: legacy_customers
CREATE TABLE legacy_customers (code VARCHAR(10) NOT NULL, name VARCHAR(60) NULL, city VARCHAR(40) NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3;
INSERT INTO legacy_customers VALUES ('C001', 'Alpha', 'Paris'), ('C002', 'Beta', NULL), ('C003', NULL, 'Rome');
UPDATE legacy_customers SET city = 'Lyon' WHERE code = 'C001';
ALTER TABLE legacy_customers ADD UNIQUE KEY uq_legacy_code (code);
DELETE FROM legacy_customers WHERE code = 'C002';
ALTER TABLE legacy_customers ADD COLUMN id INT NOT NULL AUTO_INCREMENT FIRST, ADD PRIMARY KEY (id);
INSERT INTO legacy_customers (code, name, city) VALUES ('C004', 'Delta', 'Oslo');
ALTER TABLE legacy_customers CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
UPDATE legacy_customers SET name = 'Gamma ☺' WHERE code = 'C003';
ALTER TABLE legacy_customers MODIFY name VARCHAR(60) NOT NULL DEFAULT '';
INSERT INTO legacy_customers (code, city) VALUES ('C005', 'Bern');
ALTER TABLE legacy_customers DROP INDEX uq_legacy_code;
INSERT INTO legacy_customers (code, name, city) VALUES ('C005', 'Echo twin', 'Bern');
ALTER TABLE legacy_customers CHANGE city town VARCHAR(80) NULL;
UPDATE legacy_customers SET town = 'Geneva' WHERE id = 1;

-- group flags_enum: feature_flags
CREATE TABLE feature_flags (id INT NOT NULL PRIMARY KEY, name VARCHAR(60) NOT NULL, state ENUM('off','on') NOT NULL DEFAULT 'off', audiences SET('staff','beta','all') NULL);
INSERT INTO feature_flags VALUES (1, 'new_checkout', 'on', 'staff'), (2, 'dark_mode', 'off', NULL), (3, 'search_v2', 'on', 'staff,beta');
ALTER TABLE feature_flags MODIFY state ENUM('off','on','percentage') NOT NULL DEFAULT 'off';
UPDATE feature_flags SET state = 'percentage' WHERE id = 2;
ALTER TABLE feature_flags ADD COLUMN percent TINYINT UNSIGNED NULL;
UPDATE feature_flags SET percent = 25 WHERE id = 2;
ALTER TABLE feature_flags MODIFY audiences SET('staff','beta','all','partners') NULL;
INSERT INTO feature_flags VALUES (4, 'partner_api', 'on', 'partners,staff', NULL);
ALTER TABLE feature_flags ADD COLUMN enabled BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE feature_flags SET enabled = TRUE WHERE state = 'on';
ALTER TABLE feature_flags ADD UNIQUE KEY uq_feature_flags_name (name);
INSERT INTO feature_flags VALUES (5, 'legacy_export', 'off', NULL, NULL, FALSE);
ALTER TABLE feature_flags MODIFY percent SMALLINT UNSIGNED NULL;
DELETE FROM feature_flags WHERE id = 1;

-- group notifications_json: notifications
CREATE TABLE notifications (id BIGINT NOT NULL PRIMARY KEY, user_id INT NOT NULL, payload JSON NULL, read_at DATETIME NULL);
INSERT INTO notifications VALUES (1, 1, '{"type":"welcome"}', NULL), (2, 2, '{"type":"invoice","id":3}', '2024-01-01 00:00:00');
ALTER TABLE notifications ADD COLUMN kind VARCHAR(20) AS (JSON_UNQUOTE(JSON_EXTRACT(payload, '$.type'))) STORED;
INSERT INTO notifications (id, user_id, payload) VALUES (3, 1, '{"type":"reminder"}');
ALTER TABLE notifications ADD INDEX idx_notifications_user_read (user_id, read_at);
UPDATE notifications SET read_at = '2024-02-02 00:00:00' WHERE id = 1;
ALTER TABLE notifications MODIFY user_id BIGINT NOT NULL;
INSERT INTO notifications (id, user_id, payload) VALUES (4, 5000000000, '{"type":"big"}');
DELETE FROM notifications WHERE read_at IS NOT NULL;

-- group inventory_numeric: stock_levels
CREATE TABLE stock_levels (id INT NOT NULL PRIMARY KEY, warehouse SMALLINT NOT NULL, qty INT NOT NULL, weight FLOAT NULL, cost DECIMAL(6,2) NULL);
INSERT INTO stock_levels VALUES (1, 1, 10, 1.5, 2.25), (2, 1, -3, NULL, 0.10), (3, 2, 0, 2.0, NULL);
ALTER TABLE stock_levels MODIFY qty BIGINT NOT NULL;
UPDATE stock_levels SET qty = 9000000000 WHERE id = 1;
ALTER TABLE stock_levels MODIFY weight DOUBLE NULL;
INSERT INTO stock_levels VALUES (4, 3, 1, 0.125, 1.00);
ALTER TABLE stock_levels MODIFY cost DECIMAL(12,4) NULL;
UPDATE stock_levels SET cost = 12345678.1234 WHERE id = 2;
ALTER TABLE stock_levels MODIFY warehouse INT UNSIGNED NOT NULL;
INSERT INTO stock_levels VALUES (5, 4000000000, 7, NULL, NULL);
ALTER TABLE stock_levels MODIFY id BIGINT UNSIGNED NOT NULL;
INSERT INTO stock_levels VALUES (18446744073709551615, 1, 1, NULL, NULL);
UPDATE stock_levels SET qty = 11 WHERE id = 1;
ALTER TABLE stock_levels MODIFY qty INT NOT NULL;
ALTER TABLE stock_levels ADD COLUMN reserved INT UNSIGNED NOT NULL DEFAULT 0;
UPDATE stock_levels SET reserved = 2 WHERE qty > 5;
UPDATE stock_levels SET warehouse = 9 WHERE id = 5;
ALTER TABLE stock_levels MODIFY warehouse SMALLINT UNSIGNED NOT NULL;
ALTER TABLE stock_levels ADD INDEX idx_stock_wh (warehouse, id);
DELETE FROM stock_levels WHERE id = 3;

-- group jobs_indexes: jobs
CREATE TABLE jobs (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, queue VARCHAR(50) NOT NULL, priority INT NOT NULL DEFAULT 0, run_at DATETIME NOT NULL, locked_by VARCHAR(100) NULL, attempts INT NOT NULL DEFAULT 0, handler TEXT NOT NULL);
INSERT INTO jobs VALUES (1, 'default', 0, '2024-01-01 00:00:00', NULL, 0, 'SendMail'), (2, 'mailers', 5, '2024-01-01 00:00:01', 'w1', 1, 'Digest'), (3, 'default', 1, '2024-01-01 00:00:02', NULL, 0, 'Cleanup');
CREATE INDEX delayed_jobs_priority ON jobs (priority, run_at);
DELETE FROM jobs WHERE id = 2;
ALTER TABLE jobs ADD INDEX index_jobs_on_queue (queue);
INSERT INTO jobs VALUES (4, 'low', -1, '2024-01-02 00:00:00', NULL, 0, 'Reindex');
DROP INDEX delayed_jobs_priority ON jobs;
UPDATE jobs SET attempts = attempts + 1, locked_by = 'w2' WHERE id = 1;
CREATE INDEX index_jobs_on_locked_by_prefix ON jobs (locked_by(10));
INSERT INTO jobs VALUES (5, 'default', 0, '2024-01-03 00:00:00', 'worker-host-with-a-long-name:1234', 0, 'Export');
ALTER TABLE jobs ADD COLUMN failed_at DATETIME NULL, ADD COLUMN last_error TEXT NULL;
UPDATE jobs SET failed_at = '2024-01-03 01:00:00', last_error = 'timeout' WHERE id = 3;
ALTER TABLE jobs DROP INDEX index_jobs_on_queue, ADD INDEX index_jobs_on_queue_and_run_at (queue, run_at);
DELETE FROM jobs WHERE failed_at IS NOT NULL;
ALTER TABLE jobs MODIFY handler LONGTEXT NOT NULL;
INSERT INTO jobs (id, queue, run_at, handler) VALUES (6, 'default', '2024-01-04 00:00:00', REPEAT('h', 3000));
ALTER TABLE jobs ALTER COLUMN priority SET DEFAULT 10;
INSERT INTO jobs (id, queue, run_at, handler) VALUES (7, 'default', '2024-01-05 00:00:00', 'Defaulted');
ALTER TABLE jobs RENAME INDEX index_jobs_on_locked_by_prefix TO index_jobs_on_locked_by;
UPDATE jobs SET locked_by = NULL;
ALTER TABLE jobs DROP COLUMN last_error;
INSERT INTO jobs (id, queue, run_at, handler) VALUES (8, 'high', '2024-01-06 00:00:00', 'Urgent');

-- group addresses_nullability: addresses
CREATE TABLE addresses (id INT NOT NULL PRIMARY KEY, line1 VARCHAR(100) NULL, line2 VARCHAR(100) NULL, zip VARCHAR(10) NULL, country CHAR(2) NULL);
INSERT INTO addresses VALUES (1, '1 Main St', NULL, '02110', 'US'), (2, NULL, NULL, NULL, NULL), (3, '5 High St', 'Flat 2', 'SW1A', 'GB');
UPDATE addresses SET line1 = 'unknown', zip = '00000', country = 'US' WHERE id = 2;
ALTER TABLE addresses MODIFY line1 VARCHAR(100) NOT NULL;
INSERT INTO addresses VALUES (4, '9 Elm', NULL, '10001', 'US');
ALTER TABLE addresses MODIFY country CHAR(2) NOT NULL DEFAULT 'US';
INSERT INTO addresses (id, line1, zip) VALUES (5, '7 Oak', '94105');
ALTER TABLE addresses MODIFY zip VARCHAR(10) NOT NULL;
UPDATE addresses SET zip = '02111' WHERE id = 1;
UPDATE addresses SET line2 = '' WHERE line2 IS NULL;
ALTER TABLE addresses MODIFY line2 VARCHAR(100) NOT NULL DEFAULT '';
INSERT INTO addresses (id, line1, zip) VALUES (6, '3 Pine', '60601');
ALTER TABLE addresses MODIFY line2 VARCHAR(100) NULL;
INSERT INTO addresses VALUES (7, '4 Birch', NULL, '73301', 'US');
ALTER TABLE addresses MODIFY country CHAR(2) NULL;
INSERT INTO addresses VALUES (8, '8 Cedar', NULL, '12345', NULL);
ALTER TABLE addresses ADD COLUMN city VARCHAR(60) NOT NULL;
UPDATE addresses SET city = 'Boston' WHERE zip LIKE '021%';
ALTER TABLE addresses ADD COLUMN region VARCHAR(60) NOT NULL DEFAULT 'n/a' AFTER city;
DELETE FROM addresses WHERE id = 4;

-- group comments_charset: comments
CREATE TABLE comments (id INT NOT NULL PRIMARY KEY, body VARCHAR(500) CHARACTER SET utf8mb3 NOT NULL, author VARCHAR(60) NOT NULL) DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci;
INSERT INTO comments VALUES (1, 'first!', 'ann'), (2, 'café au lait', 'bob');
ALTER TABLE comments MODIFY body VARCHAR(500) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL;
INSERT INTO comments VALUES (3, 'emoji 🎉 works now', 'cy');
ALTER TABLE comments DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
INSERT INTO comments VALUES (4, 'plain', 'dee');
ALTER TABLE comments MODIFY author VARCHAR(60) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL;
UPDATE comments SET author = 'Zoë' WHERE id = 4;
ALTER TABLE comments MODIFY body TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL;
INSERT INTO comments VALUES (5, REPEAT('long comment ', 100), 'eve');
ALTER TABLE comments ADD COLUMN lang CHAR(2) CHARACTER SET ascii NULL;
UPDATE comments SET lang = 'fr' WHERE id = 2;
ALTER TABLE comments MODIFY author VARCHAR(60) COLLATE utf8mb4_bin NOT NULL;
DELETE FROM comments WHERE id = 1;

-- group settings_renames: settings_v2 settings_history
CREATE TABLE app_settings (name VARCHAR(64) NOT NULL PRIMARY KEY, value TEXT NULL);
INSERT INTO app_settings VALUES ('site_name', 'Shop'), ('max_upload', '10');
RENAME TABLE app_settings TO settings;
INSERT INTO settings VALUES ('theme', 'light');
ALTER TABLE settings RENAME TO settings_v2;
UPDATE settings_v2 SET value = '20' WHERE name = 'max_upload';
CREATE TABLE settings_history (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(64) NOT NULL, old_value TEXT NULL, changed_at DATETIME NOT NULL);
INSERT INTO settings_history VALUES (1, 'max_upload', '10', '2024-01-01 00:00:00');
ALTER TABLE settings_v2 ADD COLUMN updated_at DATETIME NULL;
UPDATE settings_v2 SET updated_at = '2024-01-01 00:00:00';
RENAME TABLE settings_v2 TO app_settings;
INSERT INTO app_settings VALUES ('locale', 'en', NULL);
RENAME TABLE app_settings TO settings_v2, settings_history TO settings_audit;
INSERT INTO settings_audit VALUES (2, 'locale', NULL, '2024-01-02 00:00:00');
RENAME TABLE settings_audit TO settings_history;
DELETE FROM settings_v2 WHERE name = 'theme';
ALTER TABLE settings_v2 CHANGE name setting_key VARCHAR(100) NOT NULL;
INSERT INTO settings_v2 VALUES ('currency', 'EUR', '2024-01-03 00:00:00');

-- group posts: posts
CREATE TABLE posts (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, title VARCHAR(255) NULL, body TEXT NULL, created_at DATETIME(6) NOT NULL, updated_at DATETIME(6) NOT NULL);
INSERT INTO posts VALUES (1, 'Hello', 'World', '2024-01-01 00:00:00', '2024-01-01 00:00:00'), (2, 'Second', NULL, '2024-01-02 00:00:00', '2024-01-02 00:00:00');
ALTER TABLE posts ADD COLUMN user_id BIGINT NULL;
UPDATE posts SET user_id = 1;
ALTER TABLE posts ADD INDEX index_posts_on_user_id (user_id);
INSERT INTO posts VALUES (3, 'Third', 'x', '2024-01-03 00:00:00', '2024-01-03 00:00:00', 2);
ALTER TABLE posts ADD COLUMN published TINYINT(1) NOT NULL DEFAULT 0;
UPDATE posts SET published = 1 WHERE id < 3;
ALTER TABLE posts ADD COLUMN slug VARCHAR(255) NULL;
UPDATE posts SET slug = LOWER(title);
ALTER TABLE posts ADD UNIQUE INDEX index_posts_on_slug (slug);
INSERT INTO posts VALUES (4, 'Fourth', NULL, '2024-01-04 00:00:00', '2024-01-04 00:00:00', 1, 0, 'fourth');
ALTER TABLE posts MODIFY title VARCHAR(255) NOT NULL;
UPDATE posts SET body = 'edited' WHERE id = 2;
ALTER TABLE posts ADD COLUMN commentable_type VARCHAR(255) NULL, ADD COLUMN commentable_id BIGINT NULL;
ALTER TABLE posts ADD INDEX index_posts_on_commentable (commentable_type, commentable_id);
UPDATE posts SET commentable_type = 'Topic', commentable_id = 7 WHERE id = 4;
ALTER TABLE posts DROP INDEX index_posts_on_commentable;
ALTER TABLE posts DROP COLUMN commentable_type, DROP COLUMN commentable_id;
INSERT INTO posts VALUES (5, 'Fifth', 'y', '2024-01-05 00:00:00', '2024-01-05 00:00:00', 2, 1, 'fifth');
ALTER TABLE posts ADD COLUMN views INT UNSIGNED NOT NULL DEFAULT 0;
UPDATE posts SET views = views + 10 WHERE published = 1;
ALTER TABLE posts MODIFY views BIGINT UNSIGNED NOT NULL DEFAULT 0;
UPDATE posts SET views = 5000000000 WHERE id = 1;
ALTER TABLE posts RENAME COLUMN published TO is_published;
DELETE FROM posts WHERE id = 3;
ALTER TABLE posts ADD COLUMN deleted_at DATETIME NULL;
ALTER TABLE posts ADD INDEX index_posts_on_deleted_at (deleted_at);
UPDATE posts SET deleted_at = '2024-02-01 00:00:00' WHERE id = 5;

-- group webhooks: webhook_endpoints webhook_deliveries
CREATE TABLE webhook_endpoints (id INT NOT NULL PRIMARY KEY, url VARCHAR(500) NOT NULL, secret VARBINARY(32) NOT NULL, active TINYINT(1) NOT NULL DEFAULT 1);
INSERT INTO webhook_endpoints VALUES (1, 'https://a.example/hook', UNHEX('00112233'), 1), (2, 'https://b.example/hook', UNHEX('FFEE'), 0);
CREATE TABLE webhook_deliveries (id BIGINT NOT NULL PRIMARY KEY, endpoint_id INT NOT NULL, status SMALLINT NOT NULL, sent_at DATETIME(3) NOT NULL, FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE CASCADE);
INSERT INTO webhook_deliveries VALUES (1, 1, 200, '2024-01-01 00:00:00.100'), (2, 1, 500, '2024-01-01 00:00:01.200'), (3, 2, 200, '2024-01-01 00:00:02.300');
DELETE FROM webhook_endpoints WHERE id = 2;
ALTER TABLE webhook_deliveries ADD COLUMN response_ms INT NULL;
INSERT INTO webhook_deliveries VALUES (4, 1, 204, '2024-01-02 00:00:00.000', 35);
ALTER TABLE webhook_endpoints MODIFY secret VARBINARY(64) NOT NULL;
UPDATE webhook_endpoints SET secret = UNHEX(REPEAT('AB', 40)) WHERE id = 1;
ALTER TABLE webhook_deliveries ADD INDEX idx_deliveries_status (status);
INSERT INTO webhook_endpoints VALUES (3, 'https://c.example/hook', UNHEX('01'), 1);
INSERT INTO webhook_deliveries VALUES (5, 3, 410, '2024-01-03 00:00:00.000', NULL);
TRUNCATE TABLE webhook_deliveries;
INSERT INTO webhook_deliveries VALUES (6, 3, 200, '2024-01-04 00:00:00.000', 12);
ALTER TABLE webhook_deliveries MODIFY status INT NOT NULL;
UPDATE webhook_deliveries SET status = 70000 WHERE id = 6;

-- group scratch_tables: tmp_import staging_rows
CREATE TABLE tmp_import (line INT NOT NULL PRIMARY KEY, raw VARCHAR(200) NULL);
INSERT INTO tmp_import VALUES (1, 'a,b'), (2, 'c,d');
CREATE TABLE staging_rows LIKE tmp_import;
INSERT INTO staging_rows SELECT * FROM tmp_import WHERE line = 1;
TRUNCATE TABLE tmp_import;
INSERT INTO tmp_import VALUES (3, 'e,f');
DROP TABLE tmp_import;
CREATE TABLE tmp_import (line INT NOT NULL PRIMARY KEY, raw VARCHAR(200) NULL, parsed TINYINT(1) NOT NULL DEFAULT 0);
INSERT INTO tmp_import VALUES (10, 'g,h', 0);
ALTER TABLE staging_rows ADD COLUMN batch INT NOT NULL DEFAULT 1;
INSERT INTO staging_rows VALUES (2, 'c,d', 2);
DROP TABLE IF EXISTS tmp_import_old;
CREATE TABLE IF NOT EXISTS staging_rows (line INT NOT NULL PRIMARY KEY);
UPDATE staging_rows SET batch = 3 WHERE line = 1;
CREATE TABLE tmp_scratch (id INT NOT NULL PRIMARY KEY);
INSERT INTO tmp_scratch VALUES (1), (2);
DROP TABLE tmp_scratch;
INSERT INTO tmp_import VALUES (11, 'i,j', 1);

-- group partition_by_expression: sales_by_year
-- postgresql refuses: PARTITION BY RANGE of an expression (PostgreSQL partitions by columns' values; docs/migration-mysql-to-postgresql.md)
CREATE TABLE sales_by_year (id INT NOT NULL, sold_on DATE NOT NULL, amount DECIMAL(10,2) NOT NULL, PRIMARY KEY (id, sold_on)) PARTITION BY RANGE (YEAR(sold_on)) (PARTITION p2022 VALUES LESS THAN (2023), PARTITION p2023 VALUES LESS THAN (2024), PARTITION pmax VALUES LESS THAN MAXVALUE);
INSERT INTO sales_by_year VALUES (1, '2022-05-05', 10.00), (2, '2023-06-06', 20.00), (3, '2024-07-07', 30.00);
ALTER TABLE sales_by_year ADD COLUMN region VARCHAR(10) NULL;
UPDATE sales_by_year SET region = 'EU' WHERE id = 2;
-- postgresql refuses: REORGANIZE PARTITION has no translation (and the table was refused above)
ALTER TABLE sales_by_year REORGANIZE PARTITION pmax INTO (PARTITION p2024 VALUES LESS THAN (2025), PARTITION pmax VALUES LESS THAN MAXVALUE);
INSERT INTO sales_by_year VALUES (4, '2024-12-31', 40.00, 'US');
-- postgresql refuses: DROP PARTITION of a table that is not partitioned here cannot delete the partition's rows
ALTER TABLE sales_by_year DROP PARTITION p2022;
INSERT INTO sales_by_year VALUES (5, '2025-01-01', 50.00, NULL);

-- group repartition: visits
CREATE TABLE visits (id INT NOT NULL PRIMARY KEY, page VARCHAR(100) NOT NULL, at DATETIME NOT NULL);
INSERT INTO visits VALUES (1, '/', '2024-01-01 00:00:00'), (2, '/about', '2024-01-02 00:00:00'), (3, '/', '2024-01-03 00:00:00');
-- postgresql refuses: PostgreSQL cannot partition an existing table in place
ALTER TABLE visits PARTITION BY HASH (id) PARTITIONS 3;
INSERT INTO visits VALUES (4, '/pricing', '2024-01-04 00:00:00');
ALTER TABLE visits ADD INDEX idx_visits_page (page);
UPDATE visits SET page = '/home' WHERE page = '/';
-- postgresql refuses: PostgreSQL cannot stop partitioning a table in place
ALTER TABLE visits REMOVE PARTITIONING;
INSERT INTO visits VALUES (5, '/contact', '2024-01-05 00:00:00');

-- group defaults_expressions: coupons
CREATE TABLE coupons (id INT NOT NULL PRIMARY KEY, code VARCHAR(20) NOT NULL, discount INT NOT NULL DEFAULT 10, valid_until DATE NULL);
INSERT INTO coupons VALUES (1, 'WELCOME', 10, '2024-12-31'), (2, 'SPRING', 15, NULL);
ALTER TABLE coupons ADD COLUMN token VARCHAR(36) NOT NULL DEFAULT (UUID());
UPDATE coupons SET token = CONCAT('token-', id);
ALTER TABLE coupons ALTER COLUMN valid_until SET DEFAULT (CURRENT_DATE + INTERVAL 30 DAY);
INSERT INTO coupons VALUES (3, 'SUMMER', 20, '2024-08-31', 'token-3');
-- postgresql refuses: GREATEST skips NULLs in PostgreSQL, MySQL's returns NULL
ALTER TABLE coupons ADD COLUMN max_uses INT NOT NULL DEFAULT (GREATEST(1, 5));
UPDATE coupons SET max_uses = 100 WHERE id = 1;
-- postgresql refuses: RAND(seed) repeats a sequence PostgreSQL's random() does not
ALTER TABLE coupons ADD COLUMN weight DOUBLE NOT NULL DEFAULT (RAND(42));
UPDATE coupons SET weight = 0.5;
INSERT INTO coupons VALUES (4, 'AUTUMN', 25, '2024-11-30', 'token-4', 3, 0.25);
ALTER TABLE coupons MODIFY discount SMALLINT NOT NULL DEFAULT 5;
INSERT INTO coupons (id, code, valid_until, token, max_uses, weight) VALUES (5, 'WINTER', '2025-02-28', 'token-5', 1, 1.0);

-- group subscriptions: plans subscriptions
CREATE TABLE plans (id SMALLINT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, monthly_cents INT NOT NULL);
INSERT INTO plans VALUES (1, 'free', 0), (2, 'pro', 1500), (3, 'team', 4900);
CREATE TABLE subscriptions (id INT NOT NULL PRIMARY KEY, plan_id SMALLINT NOT NULL, customer VARCHAR(60) NOT NULL, started_on DATE NOT NULL, KEY idx_sub_plan (plan_id));
INSERT INTO subscriptions VALUES (1, 1, 'ann', '2024-01-01'), (2, 2, 'bob', '2024-01-05'), (3, 2, 'cy', '2024-01-09');
ALTER TABLE plans MODIFY id INT NOT NULL;
INSERT INTO plans VALUES (40000, 'enterprise', 99900);
ALTER TABLE subscriptions MODIFY plan_id INT NOT NULL;
INSERT INTO subscriptions VALUES (4, 40000, 'dee', '2024-02-01');
ALTER TABLE subscriptions ADD CONSTRAINT fk_sub_plan FOREIGN KEY (plan_id) REFERENCES plans (id) ON DELETE RESTRICT;
INSERT INTO subscriptions VALUES (5, 3, 'eve', '2024-02-02');
ALTER TABLE subscriptions ADD COLUMN ends_on DATE NULL;
UPDATE subscriptions SET ends_on = '2024-12-31' WHERE plan_id = 2;
ALTER TABLE subscriptions ADD CONSTRAINT chk_sub_dates CHECK (ends_on IS NULL OR ends_on >= started_on);
INSERT INTO subscriptions VALUES (6, 1, 'fay', '2024-03-01', NULL);
ALTER TABLE subscriptions ADD COLUMN seats INT NOT NULL DEFAULT 1;
UPDATE subscriptions SET seats = 10 WHERE plan_id = 3;
ALTER TABLE subscriptions ADD COLUMN mrr_cents INT NOT NULL DEFAULT 0;
UPDATE subscriptions s JOIN plans p ON p.id = s.plan_id SET s.mrr_cents = p.monthly_cents * s.seats;
ALTER TABLE plans ADD UNIQUE KEY uq_plans_name (name);
INSERT INTO plans VALUES (4, 'starter', 500);
ALTER TABLE plans CHANGE monthly_cents price_cents INT NOT NULL;
UPDATE plans SET price_cents = 1900 WHERE id = 2;
ALTER TABLE plans ADD COLUMN yearly_cents INT AS (price_cents * 10) STORED;
INSERT INTO plans (id, name, price_cents) VALUES (5, 'student', 100);
ALTER TABLE subscriptions DROP FOREIGN KEY fk_sub_plan;
ALTER TABLE subscriptions DROP INDEX idx_sub_plan;
DELETE FROM plans WHERE id = 1;
ALTER TABLE subscriptions ADD INDEX idx_sub_plan_started (plan_id, started_on);
INSERT INTO subscriptions VALUES (7, 5, 'gus', '2024-04-01', NULL, 1, 100);
ALTER TABLE subscriptions RENAME COLUMN customer TO customer_name;
UPDATE subscriptions SET customer_name = UPPER(customer_name) WHERE id = 7;
ALTER TABLE subscriptions MODIFY customer_name VARCHAR(120) NOT NULL;
INSERT INTO subscriptions VALUES (8, 4, 'a customer with a long company name, incorporated', '2024-04-02', NULL, 2, 1000);
ALTER TABLE subscriptions DROP CONSTRAINT chk_sub_dates;
UPDATE subscriptions SET ends_on = '2023-12-31' WHERE id = 6;
ALTER TABLE subscriptions ALTER COLUMN seats SET DEFAULT 5;
INSERT INTO subscriptions (id, plan_id, customer_name, started_on) VALUES (9, 3, 'hal', '2024-04-03');
ALTER TABLE subscriptions DROP COLUMN mrr_cents;
DELETE FROM subscriptions WHERE id = 1;
ALTER TABLE plans DROP INDEX uq_plans_name;
INSERT INTO plans (id, name, price_cents) VALUES (6, 'starter', 450);
ALTER TABLE subscriptions DROP PRIMARY KEY, ADD PRIMARY KEY (id, plan_id);
INSERT INTO subscriptions (id, plan_id, customer_name, started_on) VALUES (9, 4, 'hal again', '2024-04-04');
ALTER TABLE plans MODIFY name VARCHAR(40) NOT NULL COMMENT 'display name';
UPDATE plans SET name = 'Pro' WHERE id = 2;
ALTER TABLE plans COMMENT 'billing plans';
INSERT INTO plans (id, name, price_cents) VALUES (7, 'legacy', 0);
ALTER TABLE subscriptions ENGINE = InnoDB;
UPDATE subscriptions SET seats = seats + 1 WHERE plan_id = 4;
ALTER TABLE subscriptions ADD COLUMN notes TEXT NULL DEFAULT NULL;
UPDATE subscriptions SET notes = 'migrated' WHERE id = 2;
ALTER TABLE subscriptions ROW_FORMAT = DYNAMIC;
INSERT INTO subscriptions (id, plan_id, customer_name, started_on) VALUES (10, 2, 'ivy', '2024-05-01');
ALTER TABLE plans ADD COLUMN archived TINYINT(1) NOT NULL DEFAULT 0, ADD INDEX idx_plans_archived (archived);
UPDATE plans SET archived = 1 WHERE id = 7;
DELETE FROM plans WHERE archived = 1;
ALTER TABLE plans ADD COLUMN currency CHAR(3) NOT NULL DEFAULT 'USD' AFTER name;
INSERT INTO plans (id, name, currency, price_cents) VALUES (8, 'euro pro', 'EUR', 1700);
ALTER TABLE plans MODIFY currency CHAR(3) CHARACTER SET ascii NOT NULL DEFAULT 'USD';
UPDATE plans SET currency = 'GBP' WHERE id = 4;
CREATE UNIQUE INDEX uq_plans_name_currency ON plans (name, currency);
INSERT INTO plans (id, name, currency, price_cents) VALUES (9, 'starter', 'EUR', 400);
DROP INDEX idx_plans_archived ON plans;
UPDATE plans SET archived = 0;
ALTER TABLE plans ALTER COLUMN archived SET DEFAULT 1;
INSERT INTO plans (id, name, price_cents) VALUES (10, 'hidden', 1);
ALTER TABLE subscriptions ADD COLUMN trial_ends_on DATE NULL DEFAULT (CURRENT_DATE + INTERVAL 14 DAY);
UPDATE subscriptions SET trial_ends_on = '2024-06-01';
ALTER TABLE subscriptions ALTER COLUMN trial_ends_on DROP DEFAULT;
INSERT INTO subscriptions (id, plan_id, customer_name, started_on, trial_ends_on) VALUES (11, 8, 'jo', '2024-05-02', NULL);

-- group marker_last: corpus_tail
CREATE TABLE corpus_tail (id INT NOT NULL PRIMARY KEY, note VARCHAR(40) NOT NULL);
INSERT INTO corpus_tail VALUES (1, 'one');
ALTER TABLE corpus_tail ADD COLUMN extra INT NULL;
INSERT INTO corpus_tail VALUES (2, 'two', 2);
