import { Module } from '@nestjs/common';
import { createNestHttpApp } from './http-adapter';

// The Fastify platform as if it were not installed: an app on Express must boot without ever loading it.
jest.mock('@nestjs/platform-fastify', () => {
  throw new Error('Cannot find module @nestjs/platform-fastify');
});

@Module({})
class EmptyModule {}

describe('createNestHttpApp without @nestjs/platform-fastify installed', () => {
  it('creates an app on Express (it never loads the Fastify platform)', async () => {
    const app = await createNestHttpApp(EmptyModule, 'express', { logger: false });
    try {
      expect(app.getHttpAdapter().getType()).toBe('express');
    } finally {
      await app.close();
    }
  });

  it('refuses Fastify with the command that installs it', async () => {
    await expect(createNestHttpApp(EmptyModule, 'fastify', { logger: false })).rejects.toThrow(
      'MCP_HTTP_ADAPTER=fastify needs @nestjs/platform-fastify: npm install --save-exact @nestjs/platform-fastify@12',
    );
  });
});
