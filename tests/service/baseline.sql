PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE sessions (
	token VARCHAR(64) NOT NULL, 
	created DATETIME NOT NULL, 
	pending_secret VARCHAR(64) NOT NULL, 
	PRIMARY KEY (token)
);
INSERT INTO sessions VALUES('gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9','2026-12-01 14:17:01.640862','54ff8f6e1ea2a3c3ab28e0974c376ec30e16095a2683f3708576a38df6133909');
CREATE TABLE matches (
	id VARCHAR(36) NOT NULL, 
	game VARCHAR(40) NOT NULL, 
	owner VARCHAR(64) NOT NULL, 
	options JSON NOT NULL, 
	seats INTEGER NOT NULL, 
	players JSON NOT NULL, 
	secret VARCHAR(64) NOT NULL, 
	commitment VARCHAR(64) NOT NULL, 
	contributions JSON NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	paused BOOLEAN NOT NULL, 
	last_hand JSON, 
	outcome JSON, 
	created DATETIME NOT NULL, 
	finished DATETIME, 
	PRIMARY KEY (id)
);
INSERT INTO matches VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda','remi','gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9','{}',2,'[{"kind": "person", "session": "gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9"}, {"kind": "bot", "bot": "random"}]','310723e08f93de18a555eff30515a68ba665c1e8aa2cb73d5b971b9fd94d4da4','f44319829b5407dcc1ab9a7ac82995bb11fbcdfa426ad2e125492cc7410d4a8c','["c1"]','playing',0,NULL,NULL,'2026-12-01 14:17:01.673618',NULL);
INSERT INTO matches VALUES('040d77c2-74ee-4abe-b284-8ba9d309a5f6','okey','gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9','{}',4,'[{"kind": "person", "session": "gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]','9f8f14371782538b7dd69ef9c5a92c4a0e3ce59ce24170a1dd94d5801be43c7b','d6f8de3f64511575685aa99898177e44169b659e0f72b3396918b8aaff79b8d0','["c2"]','abandoned',0,NULL,'{"scores": [1, 2, 3, 4]}','2026-12-01 14:17:01.919144','2026-12-01 14:17:01.925133');
CREATE TABLE actions (
	match_id VARCHAR(36) NOT NULL, 
	"index" INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action JSON NOT NULL, 
	PRIMARY KEY (match_id, "index"), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
)
 WITHOUT ROWID

;
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',0,0,'{"type": "draw_stock"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',1,0,'{"type": "discard", "card": "AS#1"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',2,1,'{"type": "draw_stock"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',3,1,'{"type": "discard", "card": "7H#2"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',4,0,'{"type": "draw_stock"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',5,0,'{"type": "open", "melds": [{"cards": ["8H#2", "9H#2", "JK#1"], "declare": ["10H"]}, {"cards": ["2D#1", "3D#2", "4D#2"]}]}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',6,0,'{"type": "discard", "card": "10C#2"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',7,1,'{"type": "draw_discard"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',8,1,'{"type": "discard", "card": "10C#1"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',9,0,'{"type": "draw_discard"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',10,0,'{"type": "discard", "card": "AH#1"}');
INSERT INTO actions VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda',11,1,'{"type": "draw_stock"}');
CREATE TABLE records (
	match_id VARCHAR(36) NOT NULL, 
	session VARCHAR(64) NOT NULL, 
	game VARCHAR(40) NOT NULL, 
	score INTEGER NOT NULL, 
	rank INTEGER NOT NULL, 
	higher_is_better BOOLEAN NOT NULL, 
	published BOOLEAN NOT NULL, 
	display_name TEXT NOT NULL, 
	finished DATETIME NOT NULL, 
	PRIMARY KEY (match_id), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);
INSERT INTO records VALUES('49972f9a-0892-423e-a60d-fd36b2a47dda','gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9','remi',5,1,0,0,'','2026-12-01 14:17:01.962057');
CREATE TABLE lobby_tables (
	id VARCHAR(40) NOT NULL, 
	game VARCHAR(40) NOT NULL, 
	options JSON NOT NULL, 
	settings JSON NOT NULL, 
	public BOOLEAN NOT NULL, 
	host VARCHAR(64) NOT NULL, 
	people JSON NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	match_id VARCHAR(36), 
	created DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO lobby_tables VALUES('lobby1','okey','{}','{"turn_seconds": 30}',1,'gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9','[{"session": "gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9", "name": "Ann"}]','waiting',NULL,'2026-12-01 14:17:01.936313');
CREATE TABLE online_results (
	match_id VARCHAR(36) NOT NULL, 
	seat INTEGER NOT NULL, 
	session VARCHAR(64) NOT NULL, 
	name TEXT NOT NULL, 
	game VARCHAR(40) NOT NULL, 
	score INTEGER NOT NULL, 
	rank INTEGER NOT NULL, 
	finished DATETIME NOT NULL, 
	PRIMARY KEY (match_id, seat)
);
INSERT INTO online_results VALUES('040d77c2-74ee-4abe-b284-8ba9d309a5f6',0,'gL53857B1Iyn2ixCJ68bUFGIEpiUfhX9','Ann','okey',10,1,'2026-12-01 14:17:01.944687');
CREATE INDEX ix_matches_owner ON matches (owner);
CREATE INDEX ix_records_session ON records (session);
CREATE INDEX ix_records_game ON records (game);
CREATE INDEX ix_online_results_session ON online_results (session);
COMMIT;
