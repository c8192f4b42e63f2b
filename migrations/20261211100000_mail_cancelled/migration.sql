-- A mail that was queued in a restored archive is kept as `cancelled`: the mail worker
-- never claims it (it claims `queued` rows only), and the GM may send a copy to the
-- campaign's own addresses (docs/backups.md, docs/mail-out.md).
-- AlterEnum
ALTER TYPE "MailStatus" ADD VALUE 'cancelled';
