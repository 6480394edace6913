"""Games confirmed by their creator, addresses that are never mailed, counted requests one
at a time, and incoming mail that could not be read.

- proposals: games asked for on the start page, until their creator confirms them;
- suppressions: addresses that asked never to be mailed again;
- rate_locks: a row per rate-limit key, locked while a request is counted;
- quarantine: incoming mails that could not be read, for the operator.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('proposals',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('spec', sa.JSON(), nullable=False),
    sa.Column('creator', sa.String(length=254), nullable=False),
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('proposals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_proposals_client'), ['client'], unique=False)
        batch_op.create_index(batch_op.f('ix_proposals_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_proposals_creator'), ['creator'], unique=False)

    op.create_table('quarantine',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('reason', sa.String(length=300), nullable=False),
    sa.Column('sender', sa.String(length=254), nullable=False),
    sa.Column('subject', sa.String(length=300), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('raw', sa.LargeBinary(), nullable=False),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('quarantine', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_quarantine_received_at'), ['received_at'], unique=False)

    op.create_table('rate_locks',
    sa.Column('key', sa.String(length=300), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    with op.batch_alter_table('rate_locks', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rate_locks_at'), ['at'], unique=False)

    op.create_table('suppressions',
    sa.Column('address', sa.String(length=254), nullable=False),
    sa.Column('reason', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('address')
    )


def downgrade():
    op.drop_table('suppressions')
    with op.batch_alter_table('rate_locks', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rate_locks_at'))

    op.drop_table('rate_locks')
    with op.batch_alter_table('quarantine', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_quarantine_received_at'))

    op.drop_table('quarantine')
    with op.batch_alter_table('proposals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_proposals_creator'))
        batch_op.drop_index(batch_op.f('ix_proposals_created_at'))
        batch_op.drop_index(batch_op.f('ix_proposals_client'))

    op.drop_table('proposals')
