#!/bin/sh
# Runs once, when the MySQL container initialises its data directory: the connector's user (docs/source.md), its
# password from the container's environment (CDC_PASSWORD), never written into a file of the repository.
set -eu
mysql -uroot -p"$MYSQL_ROOT_PASSWORD" <<SQL
CREATE USER 'cdc'@'%' IDENTIFIED BY '${CDC_PASSWORD}';
GRANT SELECT, RELOAD, SHOW DATABASES, LOCK TABLES, REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'cdc'@'%';
CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, email VARCHAR(80) NULL);
CREATE TABLE shop.orders (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, customer INT NOT NULL,
  amount DECIMAL(10,2) NOT NULL, placed DATETIME(3) NOT NULL, note TEXT NULL, KEY by_customer (customer));
SQL
