-- How each account's name looks (docs/accounts.md, "Names"): its Unicode confusable skeleton
-- (UTS #39) in lower case, one per account, so that a new name cannot pass for another
-- (`r00t` for `root`). Filled for the accounts made before it when the server starts; two old
-- accounts that look alike keep theirs empty.
ALTER TABLE accounts ADD COLUMN name_look TEXT;
CREATE UNIQUE INDEX accounts_name_look ON accounts (name_look);
