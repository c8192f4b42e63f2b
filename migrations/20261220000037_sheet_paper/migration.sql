-- The paper the PDF sheets are laid out for: A4 unless the GM chooses US Letter.
ALTER TABLE "Campaign" ADD COLUMN "sheetPaper" TEXT NOT NULL DEFAULT 'a4';
