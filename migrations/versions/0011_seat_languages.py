"""Each seat's language: what its pages and mails speak (English, German, Czech); a finished
game's description kept as a phrase, said in each reader's language.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('language', sa.String(length=8), nullable=False, server_default='en'))
    # A finished game's description as a phrase's data, said in each reader's language.
    with op.batch_alter_table('game_results') as batch:
        batch.add_column(sa.Column('said', sa.JSON(), nullable=True))
    # Languages an address chose before pages were translated, and no longer offered: English.
    op.execute("UPDATE address_settings SET language = 'en' WHERE language NOT IN ('en', 'de', 'cs')")


def downgrade():
    with op.batch_alter_table('game_results') as batch:
        batch.drop_column('said')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('language')
