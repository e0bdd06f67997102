-- A session whose on-sale expects more buyers than checkout can take at once: buyers queue in its
-- waiting room, and its holds go through its inventory object instead of straight at D1.
ALTER TABLE activity_sessions ADD COLUMN high_demand INTEGER NOT NULL DEFAULT 0;
