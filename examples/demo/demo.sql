-- The sqlmorph demo database: a small company. Built into <build>/examples/demo/demo.sqlite.

CREATE TABLE departments (
  name    TEXT PRIMARY KEY,
  budget  INTEGER NOT NULL,
  floor   INTEGER
);

CREATE TABLE employees (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  dept        TEXT REFERENCES departments(name),
  salary      INTEGER NOT NULL,
  rating      REAL,
  manager_id  INTEGER REFERENCES employees(id),
  hired       TEXT
);

CREATE TABLE projects (
  id      INTEGER PRIMARY KEY,
  title   TEXT NOT NULL,
  dept    TEXT REFERENCES departments(name),
  budget  REAL
);

CREATE TABLE assignments (
  employee_id INTEGER REFERENCES employees(id),
  project_id  INTEGER REFERENCES projects(id),
  hours       INTEGER
);

INSERT INTO departments VALUES
  ('eng', 500000, 3),
  ('ops', 200000, 1),
  ('sales', 300000, 2),
  ('hr', 100000, NULL);

INSERT INTO employees VALUES
  (1, 'Ada',    'eng',   120000, 4.5, NULL, '2019-03-01'),
  (2, 'Brian',  'eng',    95000, 3.0, 1,    '2020-07-15'),
  (3, 'Chen',   'eng',    95000, 4.0, 1,    '2021-01-10'),
  (4, 'Dora',   'ops',    70000, 3.5, NULL, '2018-11-20'),
  (5, 'Emeka',  'ops',    62000, NULL, 4,   '2022-05-02'),
  (6, 'Farah',  'sales',  80000, 4.0, NULL, '2017-09-09'),
  (7, 'Goran',  'sales',  58000, 2.5, 6,    '2023-02-14'),
  (8, 'Hana',   'sales',  58000, 3.0, 6,    '2023-02-14');

INSERT INTO projects VALUES
  (1, 'Compiler',  'eng',   150000.0),
  (2, 'Datacenter','ops',    90000.0),
  (3, 'CRM',       'sales',  45000.5),
  (4, 'Hiring',    'hr',     NULL);

INSERT INTO assignments VALUES
  (1, 1, 20), (2, 1, 35), (3, 1, 35), (3, 2, 5),
  (4, 2, 40), (5, 2, 40), (6, 3, 10), (7, 3, 30), (8, 3, 30);
