"""Public names: the name an address plays under in public (challenges, ratings, leagues,
its player page). No row: the address plays as before, unrated and invisible
(`pbem.players.public`).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'public_names',
        sa.Column('address', sa.String(length=254), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('folded', sa.String(length=40), nullable=False),
        sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('address'),
        sa.UniqueConstraint('folded'),
    )


def downgrade():
    op.drop_table('public_names')
